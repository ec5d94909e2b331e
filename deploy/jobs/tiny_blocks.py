"""Tiny shuffle blocks: many map tasks x many reducers over modest data, so each block holds a
few rows (tens to hundreds of bytes). Run it with spark.sql.adaptive.enabled=false and
spark.sql.shuffle.partitions=200 (or more) to see the pathology.
  tiny_blocks.py [--app-name N] [--rows 400000] [--maps 200] [--wait-for PATH [--executors N]]
--wait-for: once N executors have registered, print "tiny_blocks: ready" and start the shuffle only when PATH
exists (tests start two applications' shuffles at chosen moments, outside their start-up time).
"""
import argparse
import time

from pyspark.sql import SparkSession, functions as F

p = argparse.ArgumentParser()
p.add_argument("--app-name", default="sluice-tiny-blocks")
p.add_argument("--rows", type=int, default=400_000)
p.add_argument("--maps", type=int, default=200)
p.add_argument("--wait-for", default=None)
p.add_argument("--executors", type=int, default=1)
p.add_argument("--wait-timeout", type=float, default=600)
a = p.parse_args()

spark = SparkSession.builder.appName(a.app_name).getOrCreate()
if a.wait_for:
    import os
    deadline = time.time() + a.wait_timeout
    sc = spark.sparkContext
    # the driver is one entry of the memory status; wait for the executors themselves
    while sc._jsc.sc().getExecutorMemoryStatus().size() < a.executors + 1 and time.time() < deadline:
        time.sleep(0.2)
    print("tiny_blocks: ready", flush=True)
    while not os.path.exists(a.wait_for) and time.time() < deadline:
        time.sleep(0.1)
t0 = time.time()
df = spark.range(0, a.rows, 1, a.maps).select(
    (F.col("id") * 2654435761 % 1000003).alias("k"), F.col("id").alias("v"))
# a plain hash repartition (no map-side combine) keeps every row in the shuffle; the reduce
# side only reads (noop sink), so the run is dominated by the many tiny block fetches
df.repartition("k").write.format("noop").mode("overwrite").save()
print(f"tiny_blocks: {a.rows} rows through {a.maps} maps in {time.time() - t0:.1f}s")
spark.stop()
