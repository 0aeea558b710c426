{# Recovery (docs/security.md, "Linkage"): per quasi-identifier q, the rows of `release` whose
   q is published generalized (its interval or hierarchy node covers two or more values) and
   for which exactly one value v inside that generalization occurs in `source` together with
   the row's values of `columns`: the adversary who reads the row and knows which combinations
   of those columns occur with which values of q learns the row's q.

   Every value is placed on one line (`pos`): a numeric value is itself, a categorical one its
   leaf rank (a hierarchy node covers one contiguous range of leaf ranks). A published row's
   generalization is then the range [lo, hi], and its candidates are the distinct source values
   of its combination of `columns` inside that range: counted by one running count over the
   source values, partitioned by combination, read at each range's ends (a range starts
   before, and ends after, the values on its bounds); a range is keyed by its combination and
   its ends (no row numbers: a CTE read twice must give the same keys). Partitioning groups NULLs as equal, as
   an adversary matching values does; no join on the columns is needed.

   The source's distinct values are read in one scan, grouped by a set per quasi-identifier
   (its value with the columns): eight DISTINCTs, each joining every source row to the leaves,
   took 1.55-1.89 s on PostgreSQL at 1e6 rows against 1.16-1.29 s (DuckDB the same, 0.09 s);
   a categorical value is placed on the line after the grouping, so the join reads distinct
   values only. The rows grouped are ``source_rows`` (linked/_source_rows.sql): the source, or
   on PostgreSQL its distinct combinations of those columns (``distinct``: ``source`` has
   exactly those, the source's counted rows grouped by them: anonsql.sql.CountedRows).

   One row per quasi-identifier with a generalized row: (q, recovered rows). `weighted`:
   `release` is grouped already, `__anonsql_rows` rows per group. #}
{% from "linked/_recovery.sql" import key, keys, text, bound, recovered %}
{% from "linked/_source_rows.sql" import source_rows %}
WITH
source_values AS MATERIALIZED (
  SELECT {{ key('s.', columns) }}{% for q in qids %}s.{{ q.column | ident }} AS {{ ('v' ~ loop.index0) | ident }}, GROUPING(s.{{ q.column | ident }}) AS {{ ('g' ~ loop.index0) | ident }}{{ ", " if not loop.last }}{% endfor %}

  FROM {{ source_rows(source, columns, qids, distinct | default(false)) }} AS s
  GROUP BY GROUPING SETS ({% for q in qids %}({% for c in columns %}s.{{ c | ident }}, {% endfor %}s.{{ q.column | ident }}){{ ", " if not loop.last }}{% endfor %})
),
{% for q in qids %}
{% set i = loop.index0 %}
{% set v = 'd.' ~ (('v' ~ i) | ident) %}
{{ ('pairs' ~ i) | ident }} AS (
  SELECT DISTINCT {{ keys(columns) }}{% if q.numeric %}CAST({{ v }} AS DOUBLE){% else %}CAST(leaf.first_leaf AS DOUBLE){% endif %} AS pos
  FROM source_values AS d
{% if not q.numeric %}
  JOIN {{ nodes | qname }} AS leaf
    ON leaf.attribute = {{ q.column | lit }} AND leaf.leaf_count = 1
    AND leaf.label = {{ text(v) }}
{% endif %}
  WHERE d.{{ ('g' ~ i) | ident }} = 0
),
{{ ('ranges' ~ i) | ident }} AS (
  SELECT {{ keys(columns) }}lo, hi, n
  FROM (
    SELECT {{ keys(columns) }}lo, hi, SUM(n) AS n
    FROM (
      SELECT {{ key('r.', columns) }}
{% if q.numeric %}
        {{ bound('r.' ~ (q.column | ident), 1) }} AS lo,
        {{ bound('r.' ~ (q.column | ident), 2) }} AS hi,
{% else %}
        CAST(node.first_leaf AS DOUBLE) AS lo,
        CAST(node.last_leaf AS DOUBLE) AS hi,
{% endif %}
        {% if weighted %}r.{{ '__anonsql_rows' | ident }}{% else %}1{% endif %} AS n
      FROM {{ release | qname }} AS r
{% if q.numeric %}
      WHERE {{ text('r.' ~ (q.column | ident)) }} LIKE '[%'
{% else %}
      JOIN {{ nodes | qname }} AS node
        ON node.attribute = {{ q.column | lit }} AND node.leaf_count > 1
        AND node.label = {{ text('r.' ~ (q.column | ident)) }}
{% endif %}
    ) AS published
    GROUP BY {{ keys(columns) }}lo, hi
  ) AS distinct_ranges
  WHERE lo < hi
),
{% endfor %}
events AS (
{% for q in qids %}
{% set i = loop.index0 %}
  SELECT {{ i | lit }} AS q, {{ keys(columns) }}pos, 1 AS kind, CAST(NULL AS DOUBLE) AS rlo, CAST(NULL AS DOUBLE) AS rhi, CAST(0 AS BIGINT) AS n
  FROM {{ ('pairs' ~ i) | ident }}
  UNION ALL
  SELECT {{ i | lit }} AS q, {{ keys(columns) }}lo AS pos, 0 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM {{ ('ranges' ~ i) | ident }}
  UNION ALL
  SELECT {{ i | lit }} AS q, {{ keys(columns) }}hi AS pos, 2 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM {{ ('ranges' ~ i) | ident }}
{% if not loop.last %}
  UNION ALL
{% endif %}
{% endfor %}
),
{{ recovered(columns) }}
