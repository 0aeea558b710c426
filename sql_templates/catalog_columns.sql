SELECT column_name, data_type
FROM information_schema.columns
WHERE table_schema = {{ schema | lit }} AND table_name = {{ name | lit }}
ORDER BY ordinal_position
