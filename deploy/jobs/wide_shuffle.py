"""One wide shuffle of payload-carrying rows: a plain hash repartition (no map-side combine), so
every byte crosses the shuffle; the reduce side only reads (noop sink). The partition count comes
from spark.sql.shuffle.partitions (and AQE settings) given with --conf, so the same job shows
too few partitions (e.g. 2), an ignored AQE advisory size (AQE on, 200 partitions,
parallelismFirst left at its default) or a large lz4 shuffle of compressible text.
  wide_shuffle.py [--app-name N] [--rows 1000000] [--maps 8] [--payload 100] [--text]
--text makes the payload compressible words instead of hex digests.
"""
import argparse
import time

from pyspark.sql import SparkSession, functions as F

p = argparse.ArgumentParser()
p.add_argument("--app-name", default="sluice-wide-shuffle")
p.add_argument("--rows", type=int, default=1_000_000)
p.add_argument("--maps", type=int, default=8)
p.add_argument("--payload", type=int, default=100, help="payload characters per row")
p.add_argument("--text", action="store_true", help="compressible word payload instead of hex digests")
a = p.parse_args()

spark = SparkSession.builder.appName(a.app_name).getOrCreate()
t0 = time.time()
ids = spark.range(0, a.rows, 1, a.maps)
if a.text:
    words = F.array(*[F.lit(w) for w in
                      ["spark", "shuffle", "block", "fetch", "stage", "task", "reduce", "map",
                       "executor", "driver", "partition", "record"]])
    word = lambda salt: F.element_at(words, ((F.col("id") * salt) % 12 + 1).cast("int"))
    payload = F.rpad(F.concat_ws(" ", word(7), word(13), word(31), F.col("id") % 1000,
                                 word(101), word(3)), a.payload, " status=ok")
else:
    payload = F.rpad(F.sha2(F.col("id").cast("string"), 256), a.payload, "0")
df = ids.select((F.col("id") * 2654435761 % 1000003).alias("k"), payload.alias("payload"))
df.repartition("k").write.format("noop").mode("overwrite").save()
print(f"wide_shuffle: {a.rows} rows x {a.payload} chars through {a.maps} maps in {time.time() - t0:.1f}s")
spark.stop()
