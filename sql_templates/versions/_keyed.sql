{# The row key of a source row: a hash of every source column (``row_hash``), and an ordinal
   among identical rows, so duplicates count (docs/releases.md). #}
{% macro row_hash(prefix, columns) -%}
HASH({% for c in columns %}{{ prefix }}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %})
{%- endmacro %}
{# Most rows are unique: only the hashes found more than once are numbered by a window (which
   sorts what it numbers), every other row's ordinal is 1. #}
{% macro keyed(source, columns, key_hash, key_ord) -%}
WITH __anonsql_hashed AS MATERIALIZED (
  SELECT s.*, {{ row_hash('s.', columns) }} AS {{ key_hash | ident }}
  FROM {{ source | qname }} AS s
), __anonsql_repeated AS (
  SELECT {{ key_hash | ident }} FROM __anonsql_hashed GROUP BY {{ key_hash | ident }} HAVING COUNT(*) > 1
)
SELECT x.*, CAST(1 AS BIGINT) AS {{ key_ord | ident }}
FROM __anonsql_hashed AS x
WHERE x.{{ key_hash | ident }} NOT IN (SELECT {{ key_hash | ident }} FROM __anonsql_repeated)
UNION ALL
SELECT x.*, ROW_NUMBER() OVER (PARTITION BY x.{{ key_hash | ident }}) AS {{ key_ord | ident }}
FROM __anonsql_hashed AS x
WHERE x.{{ key_hash | ident }} IN (SELECT {{ key_hash | ident }} FROM __anonsql_repeated)
{%- endmacro %}
