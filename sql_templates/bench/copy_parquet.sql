{# A table written as a folder of Parquet part files (benchmarks: Spark's input). #}
COPY (SELECT * FROM {{ relation | qname }}) TO {{ path | lit }} (FORMAT parquet, PER_THREAD_OUTPUT true)
