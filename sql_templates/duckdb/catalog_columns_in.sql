{# Columns of a table in an attached database (a run's working schema) or the temporary one:
   their tables are in the database's default schema. #}
SELECT column_name, data_type
FROM information_schema.columns
WHERE table_catalog = {{ catalog | lit }} AND table_schema = 'main' AND table_name = {{ name | lit }}
ORDER BY ordinal_position
