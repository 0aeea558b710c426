{# Skilling's transform as a chain of CTEs over internal columns x0..x(n-1); see
   anonsql/algorithms/hilbert.py for the reference it is tested against. Each step is
   MATERIALIZED: inlined, the steps' repeated references grow the expression exponentially.
   Compound XOR operands are parenthesized on purpose, twice: sqlglot drops the parentheses of
   a nested XOR() when writing Postgres' `#`, which has the same precedence as `&`, and writes
   XOR(a, b) & c for Spark as a ^ b & c, where `^` binds looser than `&`. (Spark drops the
   MATERIALIZED hints: anonsql/engines/spark_dialect.py.) #}
{% if target %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
{% endif %}
WITH s0 AS (
  SELECT {{ id_column | ident }} AS rid
{% for c in coordinates %}
    , CAST({{ c | ident }} AS BIGINT) AS {{ ('x' ~ loop.index0) | ident }}
{% endfor %}
  FROM {{ relation | qname }}
)
{% set ns = namespace(step=0) %}
{% for q in undo %}
{% for i in range(n) %}
{% set prev = 's' ~ ns.step %}
{% set ns.step = ns.step + 1 %}
, {{ ('s' ~ ns.step) | ident }} AS MATERIALIZED (
  SELECT rid
{% for j in range(n) %}
{% if j == 0 and i == 0 %}
    , CASE WHEN (x0 & {{ q | lit }}) <> 0 THEN XOR(x0, {{ (q - 1) | lit }}) ELSE x0 END AS x0
{% elif j == 0 %}
    , CASE WHEN ({{ ('x' ~ i) | ident }} & {{ q | lit }}) <> 0 THEN XOR(x0, {{ (q - 1) | lit }})
           ELSE XOR(x0, ((XOR(x0, {{ ('x' ~ i) | ident }})) & {{ (q - 1) | lit }})) END AS x0
{% elif j == i %}
    , CASE WHEN ({{ ('x' ~ i) | ident }} & {{ q | lit }}) <> 0 THEN {{ ('x' ~ i) | ident }}
           ELSE XOR({{ ('x' ~ i) | ident }}, ((XOR(x0, {{ ('x' ~ i) | ident }})) & {{ (q - 1) | lit }})) END
      AS {{ ('x' ~ i) | ident }}
{% else %}
    , {{ ('x' ~ j) | ident }}
{% endif %}
{% endfor %}
  FROM {{ prev | ident }}
)
{% endfor %}
{% endfor %}
{# Gray encode: x_i becomes x_0 ^ ... ^ x_i #}
{% set prev = 's' ~ ns.step %}
, gray AS (
  SELECT rid
{% for i in range(n) %}
    , {% for j in range(i) %}XOR({% endfor %}x0{% for j in range(1, i + 1) %}, {{ ('x' ~ j) | ident }}){% endfor %} AS {{ ('x' ~ i) | ident }}
{% endfor %}
  FROM {{ prev | ident }}
), fold AS (
  SELECT rid
{% for i in range(n) %}
    , {{ ('x' ~ i) | ident }}
{% endfor %}
    , {% for q in undo %}XOR({% endfor %}0{% for q in undo %}, CASE WHEN ({{ ('x' ~ (n - 1)) | ident }} & {{ q | lit }}) <> 0 THEN {{ (q - 1) | lit }} ELSE 0 END){% endfor %} AS t
  FROM gray
)
SELECT rid AS {{ id_column | ident }},
  CAST(0
{% for j in range(bits - 1, -1, -1) %}
{% set outer = loop.index0 %}
{% for i in range(n) %}
    + ((XOR({{ ('x' ~ i) | ident }}, t) >> {{ j | lit }}) & 1) * {{ (2 ** ((bits - 1 - outer) * n + (n - 1 - i))) | lit }}
{% endfor %}
{% endfor %}
  AS BIGINT) AS hilbert_key
FROM fold
