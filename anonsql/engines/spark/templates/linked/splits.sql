{# linked/splits.sql for Spark: the shared template's counts (read it there). Spark has no hash
   aggregate for MIN and MAX of text (their buffers are not fixed-width): grouping by P it sorts
   every row of the source (1e7 rows: about 15 s of a run on local[2]). With `screen`, each
   value is compared by its 64-bit hash instead (a fixed-width buffer, so a hash aggregate):
   different hashes prove different values, so a quasi-identifier found several-valued, or a
   value of P found to split it, is so; where the screen finds one single-valued or not split
   (equal hashes: equal values, or a collision), it says so with `screened` = 1 and the caller
   asks again with `screen` false, for the exact counts. NULLs hash to NULL, which MIN and MAX
   ignore, as they ignore NULL values. #}
{% macro value(q) %}{% if screen and not q.boolean %}CASE WHEN {{ q.column | ident }} IS NULL THEN NULL ELSE XXHASH64({{ q.column | ident }}) END{% else %}{{ q.column | ident }}{% endif %}{% endmacro %}
{% macro low(q, expr) %}{{ 'BOOL_AND' if q.boolean else 'MIN' }}({{ expr }}){% endmacro %}
{% macro high(q, expr) %}{{ 'BOOL_OR' if q.boolean else 'MAX' }}({{ expr }}){% endmacro %}
WITH determines AS (
  SELECT {{ column | ident }} AS p
{% for q in qids %}
    , {{ low(q, value(q)) }} AS {{ ('lo' ~ loop.index0) | ident }}
    , {{ high(q, value(q)) }} AS {{ ('hi' ~ loop.index0) | ident }}
{% endfor %}
  FROM {{ source | qname }} AS s
  GROUP BY {{ column | ident }}
)
SELECT
{% for q in qids %}
  CASE WHEN {{ low(q, ('lo' ~ loop.index0) | ident) }} <> {{ high(q, ('hi' ~ loop.index0) | ident) }} THEN 1 ELSE 0 END AS {{ ('several' ~ loop.index0) | ident }},
  SUM(CASE WHEN {{ ('lo' ~ loop.index0) | ident }} <> {{ ('hi' ~ loop.index0) | ident }} THEN 1 ELSE 0 END) AS {{ ('split' ~ loop.index0) | ident }},
{% endfor %}
  {{ 1 if screen else 0 }} AS screened
FROM determines
