{# Singling out and linkability: the groups of rows an adversary knowing `known` cannot tell
   apart (one query, whatever the number of rows: aggregates only). #}
{% from "attacks/_groups.sql" import grouped %}
SELECT
  CAST(COUNT(*) AS BIGINT) AS groups,
  CAST(COALESCE(SUM(CASE WHEN g.n = 1 THEN 1 ELSE 0 END), 0) AS BIGINT) AS isolated,
  CAST(COALESCE(MIN(g.n), 0) AS BIGINT) AS smallest,
  CAST(COALESCE(SUM(g.n), 0) AS BIGINT) AS rows
FROM ({{ grouped(relation, known, [], counted, distinct | default(false)) }}) AS g
