"""Healthy, well-partitioned shuffle: few map tasks, few reducers, blocks of hundreds of KB.

Shuffle partition count comes from spark.sql.shuffle.partitions (set it with --conf), so the
tuning loop can vary it; argv only shapes the data.
  healthy.py [--app-name N] [--rows 2000000] [--maps 8] [--keys 50000] [--pause S]
"""
import argparse
import time

from pyspark.sql import SparkSession, functions as F

p = argparse.ArgumentParser()
p.add_argument("--app-name", default="sluice-healthy")
p.add_argument("--rows", type=int, default=2_000_000)
p.add_argument("--maps", type=int, default=8)
p.add_argument("--keys", type=int, default=50_000)
p.add_argument("--pause", type=float, default=0.0, help="sleep between the two jobs (seconds)")
a = p.parse_args()

spark = SparkSession.builder.appName(a.app_name).getOrCreate()
t0 = time.time()
facts = (spark.range(0, a.rows, 1, a.maps)
         .select((F.col("id") % a.keys).alias("k"),
                 (F.col("id") * 7 % 1000).alias("v")))
agg = facts.groupBy("k").agg(F.sum("v").alias("s"), F.count("*").alias("n"))
n1 = agg.count()
if a.pause > 0:
    time.sleep(a.pause)
# a second shuffle: join the aggregate back onto a dimension table of the same keys
dim = spark.range(0, a.keys, 1, a.maps).select(F.col("id").alias("k"), (F.col("id") % 10).alias("bucket"))
res = agg.join(dim, "k").groupBy("bucket").agg(F.sum("s").alias("s")).collect()
print(f"healthy: groups={n1} buckets={len(res)} in {time.time() - t0:.1f}s")
spark.stop()
