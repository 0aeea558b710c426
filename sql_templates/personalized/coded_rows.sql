{#
  The spine's working table `rows` for a personalized run: one row per consenting row, `pid` its
  QID group, its quasi-identifiers coded as every algorithm's are (numeric values, categorical
  leaf ranks in their hierarchies) and its private row key `rid`; the stage step generalizes
  each group from it (numeric range, lowest common ancestor).
#}
{% from "prepare/_coded.sql" import coded_qids, leaf_joins %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  CAST(src.__group_id AS BIGINT) AS pid
{{ coded_qids(dims) }}
  , src.__rid AS rid
FROM (
  SELECT r.rid AS __rid, m.group_id AS __group_id
{% for d in dims %}
    , r.{{ ('q' ~ d.index) | ident }} AS {{ d.column | ident }}
{% endfor %}
  FROM {{ rows | qname }} AS r
  JOIN {{ members | qname }} AS m ON m.rid = r.rid
) AS src
{{ leaf_joins(dims, leaves) }}
