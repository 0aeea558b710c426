{# The narrow working table: partition id, coded quasi-identifiers, coded sensitive values. #}
{% from "prepare/_coded.sql" import coded_qids, leaf_joins %}
CREATE {{ working_table }}TABLE {{ rows | qname }} AS
SELECT
  CAST(0 AS BIGINT) AS pid
{{ coded_qids(dims) }}
{% for s in sensitive %}
  , CAST(DENSE_RANK() OVER (ORDER BY src.{{ s.column | ident }} ASC NULLS LAST) - 1 AS INTEGER) AS {{ s.code | ident }}
{% endfor %}
FROM {{ source | qname }} AS src
{{ leaf_joins(dims, leaves) }}
