"""Spilling sort and aggregation: wide rows sorted within few large partitions. Run it with a
small executor memory and a low spark.memory.fraction (e.g. 512m and 0.05) so that
memoryBytesSpilled / diskBytesSpilled are non-zero.
  spill.py [--app-name N] [--rows 800000] [--maps 4] [--payload 60]
"""
import argparse
import time

from pyspark.sql import SparkSession, functions as F

p = argparse.ArgumentParser()
p.add_argument("--app-name", default="sluice-spill")
p.add_argument("--rows", type=int, default=800_000)
p.add_argument("--maps", type=int, default=4)
p.add_argument("--payload", type=int, default=60, help="payload characters per row")
a = p.parse_args()

spark = SparkSession.builder.appName(a.app_name).getOrCreate()
t0 = time.time()
df = spark.range(0, a.rows, 1, a.maps).select(
    (F.col("id") * 48271 % 2147483647).alias("k"),
    F.rpad(F.sha1(F.col("id").cast("string")), a.payload, "x").alias("payload"))
# sort the whole data set within each shuffle partition (external sort -> spills)
sorted_df = df.repartition("k").sortWithinPartitions("payload")
sorted_df.write.format("noop").mode("overwrite").save()
# and a high-cardinality aggregation (hash aggregation falls back to sort -> spills)
n = df.groupBy("payload").agg(F.max("k").alias("m")).count()
print(f"spill: {n} groups in {time.time() - t0:.1f}s")
spark.stop()
