{# A later version's changes in one pass over the source (anonsql.versions.delta): every
   source row whose row hash no published row has (new since the last version, or held back
   by it), with its hash, and the hash of every published row the source no longer has
   (``__anonsql_gone_hash``, the other columns NULL). One FULL JOIN of the source's hashes
   with the version's: two anti-joins, one per direction, hashed the source twice and read
   every column of the version's rows (1e7 rows on DuckDB: 1.37-1.76 s against 0.58 s). #}
{% from "versions/_keyed.sql" import row_hash %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT n.*, p.__anonsql_gone_hash
FROM (
  SELECT {% for c in columns %}s.{{ c | ident }}, {% endfor %}{{ row_hash('s.', columns) }} AS {{ key_hash | ident }}
  FROM {{ source | qname }} AS s
) AS n
FULL JOIN (
  SELECT h.{{ key_hash | ident }} AS __anonsql_gone_hash FROM {{ rows | qname }} AS h
) AS p
  ON p.__anonsql_gone_hash = n.{{ key_hash | ident }}
WHERE n.{{ key_hash | ident }} IS NULL OR p.__anonsql_gone_hash IS NULL
