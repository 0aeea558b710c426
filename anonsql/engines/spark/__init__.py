"""Spark SQL's home (the ``spark`` extra): its engine class, its sqlglot dialect, and its
template overrides under ``templates/``, searched before the shared ``sql_templates/``."""

from anonsql.engines.spark.engine import SparkEngine

__all__ = ["SparkEngine"]
