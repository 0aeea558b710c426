{# The kind of each of several relations in one catalog query (names a schema lacks are absent
   from the result). ``wanted``: [(schema, [name, ...]), ...]. #}
SELECT table_schema, table_name, table_type
FROM information_schema.tables
WHERE {% for schema, names in wanted %}(table_schema = {{ schema | lit }} AND table_name IN ({% for n in names %}{{ n | lit }}{{ ", " if not loop.last }}{% endfor %})){{ " OR " if not loop.last }}{% endfor %}
