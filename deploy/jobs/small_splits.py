"""Many small input splits: writes --files CSV files (about --mb-per-file MB each) to a private
temp dir, then reads them back and aggregates over a few keys. Run it with a small
spark.sql.files.maxPartitionBytes (e.g. 128k) to get many map tasks that each write a few
hundred bytes of shuffle output. The temp dir is removed at the end (driver and executors share
the host on the loopback test cluster).
  small_splits.py [--app-name N] [--files 8] [--mb-per-file 6] [--keys 16]
"""
import argparse
import shutil
import tempfile
import time

from pyspark.sql import SparkSession, functions as F

p = argparse.ArgumentParser()
p.add_argument("--app-name", default="sluice-small-splits")
p.add_argument("--files", type=int, default=8)
p.add_argument("--mb-per-file", type=float, default=6.0)
p.add_argument("--keys", type=int, default=16)
a = p.parse_args()

spark = SparkSession.builder.appName(a.app_name).getOrCreate()
t0 = time.time()
tmp = tempfile.mkdtemp(prefix="sluice-small-splits-")
try:
    # ~40 bytes per CSV line
    rows = int(a.files * a.mb_per_file * 1024 * 1024 / 40)
    (spark.range(0, rows, 1, a.files)
     .select((F.col("id") % a.keys).alias("k"), (F.col("id") * 7 % 1000).alias("v"),
             F.sha1(F.col("id").cast("string")).substr(1, 20).alias("tag"))
     .write.mode("overwrite").csv(f"file://{tmp}/data"))
    schema = "k INT, v INT, tag STRING"
    res = (spark.read.schema(schema).csv(f"file://{tmp}/data")
           .groupBy("k").agg(F.sum("v").alias("s"), F.count("*").alias("n")).collect())
    n = sum(r["n"] for r in res)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print(f"small_splits: {n} rows from {a.files} files in {len(res)} groups in {time.time() - t0:.1f}s")
spark.stop()
