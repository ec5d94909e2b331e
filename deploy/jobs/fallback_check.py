"""A shuffle job whose result is known in closed form, for the push-tier fallback test and benchmark:
rows 0..N-1 grouped by id % K (one shuffle), every group's count and sum checked against arithmetic.
  fallback_check.py [--app-name N] [--rows 200000] [--keys 1000] [--maps 8]
Prints one line  FALLBACK_CHECK rows=N keys=K groups=G total_count=C total_sum=S bad_groups=B ok=true|false
and exits 1 if any group is wrong. Run it with spark.sql.adaptive.enabled=false for a fixed plan.
"""
import argparse
import sys

from pyspark.sql import SparkSession, functions as F

p = argparse.ArgumentParser()
p.add_argument("--app-name", default="sluice-fallback-check")
p.add_argument("--rows", type=int, default=200_000)
p.add_argument("--keys", type=int, default=1000)
p.add_argument("--maps", type=int, default=8)
a = p.parse_args()

spark = SparkSession.builder.appName(a.app_name).getOrCreate()
rows = (spark.range(0, a.rows, 1, a.maps)
        .groupBy((F.col("id") % a.keys).alias("k"))
        .agg(F.count("*").alias("c"), F.sum("id").alias("s"))
        .collect())
bad = 0
for r in rows:
    k = r["k"]
    n = (a.rows - 1 - k) // a.keys + 1 if k < a.rows else 0    # members k, k+K, ..., below rows
    expected_sum = n * k + a.keys * n * (n - 1) // 2
    if r["c"] != n or r["s"] != expected_sum:
        bad += 1
groups = len(rows)
ok = bad == 0 and groups == min(a.keys, a.rows)
print(f"FALLBACK_CHECK rows={a.rows} keys={a.keys} groups={groups} total_count={sum(r['c'] for r in rows)} "
      f"total_sum={sum(r['s'] for r in rows)} bad_groups={bad} ok={'true' if ok else 'false'}", flush=True)
spark.stop()
sys.exit(0 if ok else 1)
