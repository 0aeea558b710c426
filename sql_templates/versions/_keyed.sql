{# The row key of a source row: a hash of every source column (``row_hash``), and an ordinal
   among identical rows, so duplicates count (docs/releases.md). #}
{% macro row_hash(prefix, columns) -%}
HASH({% for c in columns %}{{ prefix }}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %})
{%- endmacro %}
{# Most rows are unique: only the hashes found more than once are numbered by a window (which
   sorts what it numbers), every other row's ordinal is 1. The repeated hashes come of a scan of
   the hashes alone; the rows are read from the source again rather than from a materialized
   copy of it (at 1e8 rows on DuckDB, out of core, the copy spilled ~17 GiB and the statement
   took 76 s against 40 s). The window orders by every column, so that two rows whose hashes
   collide get the same ordinals on every read (a view of these rows is read several times:
   versions/keyed_batch.sql). #}
{# ``parts`` > 1: only the hashes of one part of the hash space (``part``), so that a caller
   can aggregate the distinct hashes part by part (versions/keyed_batch.sql). #}
{% macro repeated_hashes(source, columns, parts=1, part=0) -%}
SELECT r.h FROM (SELECT {{ row_hash('s.', columns) }} AS h FROM {{ source | qname }} AS s) AS r
{% if parts > 1 %}
WHERE r.h % {{ parts | lit }} = {{ part | lit }}
{% endif %}
GROUP BY r.h HAVING COUNT(*) > 1
{%- endmacro %}
{# The keyed rows, given the relation of the repeated hashes (``repeated``: SQL text, a CTE's
   name or a quoted table name). #}
{% macro keyed_rows(source, columns, key_hash, key_ord, repeated) -%}
SELECT s.*, {{ row_hash('s.', columns) }} AS {{ key_hash | ident }}, CAST(1 AS BIGINT) AS {{ key_ord | ident }}
FROM {{ source | qname }} AS s
WHERE {{ row_hash('s.', columns) }} NOT IN (SELECT p.h FROM {{ repeated }} AS p)
UNION ALL
SELECT x.*, ROW_NUMBER() OVER (
  PARTITION BY x.{{ key_hash | ident }}
  ORDER BY {% for c in columns %}x.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}
) AS {{ key_ord | ident }}
FROM (
  SELECT s.*, {{ row_hash('s.', columns) }} AS {{ key_hash | ident }} FROM {{ source | qname }} AS s
) AS x
WHERE x.{{ key_hash | ident }} IN (SELECT p.h FROM {{ repeated }} AS p)
{%- endmacro %}
{% macro keyed(source, columns, key_hash, key_ord) -%}
WITH __anonsql_repeated AS MATERIALIZED (
  {{ repeated_hashes(source, columns) }}
)
{{ keyed_rows(source, columns, key_hash, key_ord, "__anonsql_repeated") }}
{%- endmacro %}
