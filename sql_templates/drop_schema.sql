DROP SCHEMA IF EXISTS {{ schema | ident }} CASCADE
