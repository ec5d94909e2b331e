# A small shuffle job for the listener integration tests: two stages joined by a shuffle.
import sys
from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("sluice-listener-it").getOrCreate()
sc = spark.sparkContext
counts = (sc.parallelize(range(40000), 4)
          .map(lambda x: (x % 97, 1))
          .reduceByKey(lambda a, b: a + b, 3)
          .collect())
print("SLUICE_JOB_RESULT keys=%d total=%d" % (len(counts), sum(v for _, v in counts)))
spark.stop()
