{# The row key of a source row: a hash of every source column (``row_hash``), and an ordinal
   among identical rows, so duplicates count (docs/releases.md). #}
{% macro row_hash(prefix, columns) -%}
HASH({% for c in columns %}{{ prefix }}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %})
{%- endmacro %}
{# Most rows are unique: only the hashes found more than once are numbered by a window (which
   sorts what it numbers), every other row's ordinal is 1. The repeated hashes come of a scan of
   the hashes alone; the rows are read from the source again rather than from a materialized
   copy of it (at 1e8 rows on DuckDB, out of core, the copy spilled ~17 GiB and the statement
   took 76 s against 40 s). #}
{% macro keyed(source, columns, key_hash, key_ord) -%}
WITH __anonsql_repeated AS MATERIALIZED (
  SELECT r.h FROM (SELECT {{ row_hash('s.', columns) }} AS h FROM {{ source | qname }} AS s) AS r
  GROUP BY r.h HAVING COUNT(*) > 1
)
SELECT s.*, {{ row_hash('s.', columns) }} AS {{ key_hash | ident }}, CAST(1 AS BIGINT) AS {{ key_ord | ident }}
FROM {{ source | qname }} AS s
WHERE {{ row_hash('s.', columns) }} NOT IN (SELECT h FROM __anonsql_repeated)
UNION ALL
SELECT x.*, ROW_NUMBER() OVER (PARTITION BY x.{{ key_hash | ident }}) AS {{ key_ord | ident }}
FROM (
  SELECT s.*, {{ row_hash('s.', columns) }} AS {{ key_hash | ident }} FROM {{ source | qname }} AS s
) AS x
WHERE x.{{ key_hash | ident }} IN (SELECT h FROM __anonsql_repeated)
{%- endmacro %}
