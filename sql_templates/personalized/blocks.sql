{# Each row's block: rows with equal cluster keys (a key part is a QID, or a prefix of its
   text) share a block, numbered 0, 1, ... in key order. #}
{% from "personalized/_macros.sql" import key_part %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  rid,
  CAST(DENSE_RANK() OVER (ORDER BY {% for p in key %}{{ key_part(p) }} ASC NULLS LAST{{ ", " if not loop.last }}{% endfor %}) - 1 AS BIGINT) AS block
FROM {{ rows | qname }}
