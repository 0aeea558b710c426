{# A new history's batch on PostgreSQL: a copy of the source with its row keys. A view would
   number every row by its window again for each reader (sql_templates/versions/keyed_batch.sql
   is DuckDB's view). #}
{% from "versions/_keyed.sql" import keyed %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
{{ keyed(source, columns, key_hash, key_ord) }}
