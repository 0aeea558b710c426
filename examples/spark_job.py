"""anonsql as a Spark job: anonymize Parquet files and publish the release in the catalog.

    spark-submit --master spark://host:7077 examples/spark_job.py spec.yaml /data/visits

The spec's ``source`` is replaced by the files given; its ``output`` names the release. The
driver needs anonsql installed (``pip install 'anonsql[spark]'``); the executors need nothing
beyond Spark: anonsql sends SQL, and the driver collects aggregates only.
"""

import json
import sys

from pyspark.sql import SparkSession

import anonsql.spark

spark = SparkSession.builder.appName("anonsql").getOrCreate()
spec_path, files = sys.argv[1], sys.argv[2]
release = anonsql.spark.anonymize(spark.read.parquet(files), spec_path)
print(json.dumps({"output": str(release.result.names.main), "verified": release.check.holds}))
print(f"released rows: {release.dataframe.count()}")
spark.stop()  # the job's own session: anonsql never stops it
