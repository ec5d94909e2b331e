"""A real FetchFailed: during the reduce stage, the first attempt of reduce partition 0 deletes
the shuffle files of one executor (after it has read its own input). Later reduce tasks then
fail to fetch those blocks (through the ESS or from local disk), the scheduler marks the map
output lost, re-runs the map stage (attempt 1) and the reduce stage (attempt 1), which succeed.
Needs at least two executors (e.g. spark.executor.cores=1, spark.cores.max=2) and an RDD
shuffle with more reducers than cores.
  fetch_failed.py [--app-name N] [--rows 300000] [--maps 8] [--reducers 24]
"""
import argparse
import glob
import os
import time

from pyspark import TaskContext
from pyspark.sql import SparkSession

p = argparse.ArgumentParser()
p.add_argument("--app-name", default="sluice-fetch-failed")
p.add_argument("--rows", type=int, default=300_000)
p.add_argument("--maps", type=int, default=8)
p.add_argument("--reducers", type=int, default=24)
a = p.parse_args()
rows, maps = a.rows, a.maps


def gen(i):
    per = rows // maps
    for j in range(i * per, (i + 1) * per):
        yield (j * 7919) % 50_000, 1


def sabotage(idx, it):
    data = list(it)  # the shuffle input of this task has been read completely
    tc = TaskContext.get()
    if idx == 0 and tc.attemptNumber() == 0:
        roots = [d for d in (os.environ.get("SPARK_EXECUTOR_DIRS", "") + ":" +
                             os.environ.get("SPARK_LOCAL_DIRS", "")).split(":") if d]
        # once per application: the first reduce attempt that creates the marker sabotages
        # (Python's TaskContext has no stage attempt number; the app's local dir is fresh)
        try:
            fd = os.open(os.path.join(roots[0], "sluice-fetch-failed.marker"), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            os.close(fd)
        except (OSError, IndexError):
            return [(idx, len(data))]
        mgr_dirs = sorted({m for r in roots for m in glob.glob(os.path.join(r, "**", "blockmgr-*"), recursive=True)})
        if mgr_dirs:
            victim = mgr_dirs[0]
            n = 0
            for f in glob.glob(os.path.join(victim, "*", "shuffle_*")):
                try:
                    os.remove(f)
                    n += 1
                except OSError:
                    pass
            print(f"sluice fixture: deleted {n} shuffle files under {victim}", flush=True)
        time.sleep(1.0)
    return [(idx, len(data))]


spark = SparkSession.builder.appName(a.app_name).getOrCreate()
sc = spark.sparkContext
t0 = time.time()
pairs = sc.parallelize(range(maps), maps).flatMap(gen)
counts = pairs.reduceByKey(lambda x, y: x + y, a.reducers)
res = counts.mapPartitionsWithIndex(sabotage).collect()
print(f"fetch_failed: {sum(n for _, n in res)} keys over {len(res)} partitions in {time.time() - t0:.1f}s")
spark.stop()
