{# A later version's batch, placed (versions/_placed.sql): the history, the version's rows and
   the held rows each read it. #}
{% from "versions/_placed.sql" import placed_rows %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
{{ placed_rows(batch, recoding, columns, dims, suffix, offset, key_hash, key_ord) }}
