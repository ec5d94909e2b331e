"""Skewed sort-merge join: one hot key holds --hot-fraction of the fact rows, so one reduce task
reads most of the shuffle. Run it with spark.sql.autoBroadcastJoinThreshold=-1 and either AQE off
or spark.sql.adaptive.skewJoin.enabled=false to keep the skew.
  skew.py [--app-name N] [--rows 1500000] [--maps 8] [--keys 20000] [--hot-fraction 0.6]
"""
import argparse
import time

from pyspark.sql import SparkSession, functions as F

p = argparse.ArgumentParser()
p.add_argument("--app-name", default="sluice-skew")
p.add_argument("--rows", type=int, default=1_500_000)
p.add_argument("--maps", type=int, default=8)
p.add_argument("--keys", type=int, default=20_000)
p.add_argument("--hot-fraction", type=float, default=0.6)
a = p.parse_args()

spark = SparkSession.builder.appName(a.app_name).getOrCreate()
t0 = time.time()
hot_below = int(a.hot_fraction * 1000)
facts = spark.range(0, a.rows, 1, a.maps).select(
    F.when(F.col("id") % 1000 < hot_below, F.lit(0))
     .otherwise(F.col("id") * 7919 % a.keys).alias("k"),
    (F.col("id") * 2654435761 % 1000000007).alias("v"))
dim = spark.range(0, a.keys, 1, 2).select(F.col("id").alias("k"),
                                          F.concat(F.lit("name-"), F.col("id")).alias("name"))
joined = facts.join(dim, "k")
res = joined.groupBy((F.col("k") % 10).alias("b")).agg(F.sum("v").alias("s"), F.count("*").alias("n")).collect()
print(f"skew: {sum(r['n'] for r in res)} joined rows in {time.time() - t0:.1f}s")
spark.stop()
