{# Shared macros of the dependency templates. Columns get internal aliases (x0.., y0..) so that no
   user column name can collide with a name of the query. #}
{% macro aliased(columns, prefix, source='') -%}
{% for c in columns %}{{ source }}{{ c | ident }} AS {{ (prefix ~ loop.index0) | ident }}{{ ", " if not loop.last }}{% endfor %}
{%- endmacro %}
{% macro aliases(columns, prefix, source='') -%}
{% for c in columns %}{{ source }}{{ (prefix ~ loop.index0) | ident }}{{ ", " if not loop.last }}{% endfor %}
{%- endmacro %}
{% macro dbl(expression) -%}
CAST({{ expression }} AS DOUBLE)
{%- endmacro %}
{# n * ln(n) of a count, 0 for 0 #}
{% macro nlogn(expression) -%}
CASE WHEN {{ expression }} > 0 THEN CAST({{ expression }} AS DOUBLE) * LN(CAST({{ expression }} AS DOUBLE)) ELSE CAST(0 AS DOUBLE) END
{%- endmacro %}
{# Occurrences of each leaf rank of a categorical column in the source (rows whose text is not a
   leaf drop out). Columns r (leaf rank), n. ``leaves`` (and ``nodes`` below) are rendered
   relations: a qualified table name or a CTE's name. #}
{% macro leaf_counts(source, column, leaves) -%}
SELECT lf.leaf_rank AS r, COUNT(*) AS n
FROM {{ source | qname }} AS s
JOIN {{ leaves }} AS lf ON lf.value = CAST(s.{{ column | ident }} AS VARCHAR)
GROUP BY lf.leaf_rank
{%- endmacro %}
{# Total rows and H(X_A) in nats of a counts CTE with column n. #}
{% macro totals(counts) -%}
SELECT SUM(n) AS total,
  ({{ nlogn('SUM(n)') }} - SUM({{ nlogn('n') }})) / SUM(n) AS h
FROM {{ counts }}
{%- endmacro %}
{# Entropy penalty E(v) = (n_v ln n_v - Σ n_b ln n_b) / N (Gorla 2019, Eq. 3.1) and its
   normalized form NE = E / H(X_A) (0 for a constant column) of every hierarchy node. #}
{% macro node_entropy(nodes, counts, totals) -%}
SELECT nd.node_id, nd.label, nd.first_leaf, nd.last_leaf,
  GREATEST(({{ nlogn('COALESCE(SUM(c.n), 0)') }} - COALESCE(SUM({{ nlogn('c.n') }}), 0)) / t.total, 0) AS entropy,
  CASE WHEN t.h > 0
       THEN LEAST(GREATEST(({{ nlogn('COALESCE(SUM(c.n), 0)') }} - COALESCE(SUM({{ nlogn('c.n') }}), 0)) / t.total / t.h, 0), 1)
       ELSE 0 END AS ne
FROM {{ nodes }} AS nd
LEFT JOIN {{ counts }} AS c ON c.r BETWEEN nd.first_leaf AND nd.last_leaf
CROSS JOIN {{ totals }} AS t
GROUP BY nd.node_id, nd.label, nd.first_leaf, nd.last_leaf, t.total, t.h
{%- endmacro %}
