{# linked/recovery.sql for Spark: the shared template's measure (read it there), with `source`
   and `release` each read once for every quasi-identifier. On Spark every reference to a CTE
   recomputes it and each aggregate and broadcast is a job of its own, so the shared template's
   CTEs per quasi-identifier (each range set read twice) started about four jobs each. Here each
   relation's rows are crossed with the quasi-identifiers' indexes (`q`), each value placed on
   the line by one join with `nodes`, and a range's two ends come from one row: the same pairs,
   ranges and events as the shared template; the running count and what follows are its.
   The source's crossing is made distinct (q, the columns, the value) before anything else: the
   partial aggregate after the crossing keeps a few thousand rows per task, so the join with
   `nodes` reads those (at 1e7 rows: 9.0 s for the statement against 13.3 s when the source
   was first made distinct over all its columns, and every crossed row then joined, itself
   faster than joining all 8e7 crossed rows). The release, already grouped, is grouped again
   over the columns read (with its row counts) before its crossing. #}
{% from "linked/_recovery.sql" import key, keys, text, bound, recovered %}
{% set indexes %}[{% for q in qids %}{{ loop.index0 | lit }}{{ ", " if not loop.last }}{% endfor %}]{% endset %}
{% set categorical = qids | rejectattr('numeric') | list %}
{% set read = (columns + (qids | map(attribute='column') | list)) | unique | list %}
{% set read_list %}{% for c in read %}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}{% endset %}
WITH
source_rows AS (
  SELECT DISTINCT qs.q, {{ key('s.', columns) }}
    CASE qs.q{% for q in qids %}{% if q.numeric %} WHEN {{ loop.index0 | lit }} THEN CAST(s.{{ q.column | ident }} AS DOUBLE){% endif %}{% endfor %} END AS value_pos,
    CASE qs.q{% for q in qids %}{% if not q.numeric %} WHEN {{ loop.index0 | lit }} THEN {{ text('s.' ~ (q.column | ident)) }}{% endif %}{% endfor %} END AS label
  FROM {{ source | qname }} AS s
  CROSS JOIN UNNEST({{ indexes }}) AS qs(q)
),
pairs AS (
  SELECT DISTINCT r.q, {{ keys(columns) }}{% if categorical %}CASE WHEN r.is_numeric THEN r.value_pos ELSE CAST(leaf.first_leaf AS DOUBLE) END{% else %}r.value_pos{% endif %} AS pos
  FROM (
    SELECT source_rows.*,
      CASE q{% for q in qids %} WHEN {{ loop.index0 | lit }} THEN {{ 'TRUE' if q.numeric else 'FALSE' }}{% endfor %} END AS is_numeric,
      CASE q{% for q in qids %} WHEN {{ loop.index0 | lit }} THEN {{ q.column | lit }}{% endfor %} END AS attribute
    FROM source_rows
  ) AS r
{% if categorical %}
  LEFT JOIN {{ nodes | qname }} AS leaf
    ON leaf.attribute = r.attribute AND leaf.leaf_count = 1 AND leaf.label = r.label
  WHERE r.is_numeric OR leaf.attribute IS NOT NULL
{% endif %}
),
release_rows AS (
  SELECT qs.q, {{ key('r.', columns) }}
    CASE qs.q{% for q in qids %} WHEN {{ loop.index0 | lit }} THEN {{ 'TRUE' if q.numeric else 'FALSE' }}{% endfor %} END AS is_numeric,
    CASE qs.q{% for q in qids %} WHEN {{ loop.index0 | lit }} THEN {{ q.column | lit }}{% endfor %} END AS attribute,
    CASE qs.q{% for q in qids %} WHEN {{ loop.index0 | lit }} THEN {{ text('r.' ~ (q.column | ident)) }}{% endfor %} END AS label,
    r.{{ '__anonsql_rows' | ident }} AS n
  FROM (
    SELECT {{ read_list }}, {% if weighted %}SUM({{ '__anonsql_rows' | ident }}){% else %}COUNT(*){% endif %} AS {{ '__anonsql_rows' | ident }}
    FROM {{ release | qname }}
    GROUP BY {{ read_list }}
  ) AS r
  CROSS JOIN UNNEST({{ indexes }}) AS qs(q)
),
ranges AS (
  SELECT q, {{ keys(columns) }}lo, hi, SUM(n) AS n
  FROM (
    SELECT p.q, {{ keys(columns) }}
      CASE WHEN p.is_numeric AND p.label LIKE '[%' THEN {{ bound('p.label', 1) }}{% if categorical %} WHEN NOT p.is_numeric THEN CAST(node.first_leaf AS DOUBLE){% endif %} END AS lo,
      CASE WHEN p.is_numeric AND p.label LIKE '[%' THEN {{ bound('p.label', 2) }}{% if categorical %} WHEN NOT p.is_numeric THEN CAST(node.last_leaf AS DOUBLE){% endif %} END AS hi,
      p.n
    FROM release_rows AS p
{% if categorical %}
    LEFT JOIN {{ nodes | qname }} AS node
      ON node.attribute = p.attribute AND node.leaf_count > 1 AND NOT p.is_numeric
      AND node.label = p.label
    WHERE (p.is_numeric AND p.label LIKE '[%') OR (NOT p.is_numeric AND node.attribute IS NOT NULL)
{% else %}
    WHERE p.label LIKE '[%'
{% endif %}
  ) AS published
  GROUP BY q, {{ keys(columns) }}lo, hi
),
events AS (
  SELECT q, {{ keys(columns) }}pos, 1 AS kind, CAST(NULL AS DOUBLE) AS rlo, CAST(NULL AS DOUBLE) AS rhi, CAST(0 AS BIGINT) AS n
  FROM pairs
  UNION ALL
  SELECT q, {{ keys(columns) }}CASE WHEN ends.kind = 0 THEN lo ELSE hi END AS pos, ends.kind AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM ranges
  CROSS JOIN UNNEST([0, 2]) AS ends(kind)
  WHERE lo < hi
),
{{ recovered(columns) }}
