"""PostgreSQL's home (the ``postgres`` extra: psycopg): its engine class, and its
templates under ``templates/``, searched before the shared ``sql_templates/``."""

from anonsql.engines.postgres.engine import PostgresEngine

__all__ = ["PostgresEngine"]
