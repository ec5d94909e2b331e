"""Task failures that retries fix: a Python UDF raises on the first attempt of some partitions,
in the map stage and again in the reduce stage (after the shuffle read), so the log holds failed
task ends (ExceptionFailure) followed by successful retries.
  failures.py [--app-name N] [--rows 400000] [--maps 8] [--fail-every 3]
"""
import argparse
import time

from pyspark import TaskContext
from pyspark.sql import SparkSession, functions as F
from pyspark.sql.types import LongType

p = argparse.ArgumentParser()
p.add_argument("--app-name", default="sluice-failures")
p.add_argument("--rows", type=int, default=400_000)
p.add_argument("--maps", type=int, default=8)
p.add_argument("--fail-every", type=int, default=3,
               help="partitions whose index is a multiple of this fail on their first attempt")
a = p.parse_args()
fail_every = a.fail_every


def flaky(stage):
    def f(x):
        tc = TaskContext.get()
        if tc.attemptNumber() == 0 and tc.partitionId() % fail_every == 0:
            raise RuntimeError(f"sluice fixture: injected failure in {stage} stage, "
                               f"partition {tc.partitionId()}, first attempt")
        return x
    return F.udf(f, LongType())


spark = SparkSession.builder.appName(a.app_name).getOrCreate()
t0 = time.time()
df = spark.range(0, a.rows, 1, a.maps).select(flaky("map")(F.col("id")).alias("id"))
agg = df.groupBy((F.col("id") % 1000).alias("k")).agg(F.sum("id").alias("s"))
res = agg.select(flaky("reduce")(F.col("s")).alias("s")).agg(F.sum("s")).collect()
print(f"failures: total={res[0][0]} in {time.time() - t0:.1f}s")
spark.stop()
