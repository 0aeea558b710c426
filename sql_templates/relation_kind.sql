SELECT table_type
FROM information_schema.tables
WHERE table_schema = {{ schema | lit }} AND table_name = {{ name | lit }}
