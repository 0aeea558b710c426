{# Relations of a schema whose names start with a prefix (versions of a release). #}
SELECT table_name, table_type
FROM information_schema.tables
WHERE table_schema = {{ schema | lit }} AND STARTS_WITH(table_name, {{ prefix | lit }})
ORDER BY table_name
