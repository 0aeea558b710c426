{# The schemas of runs' working tables (alive or left behind by a run that was killed). #}
SELECT schema_name FROM information_schema.schemata
WHERE STARTS_WITH(schema_name, {{ prefix | lit }})
ORDER BY schema_name
