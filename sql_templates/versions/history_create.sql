{# The private history: one row per source row a version published, with its class, the
   version it was published in (``since``) and the version it left in (``until``, NULL while
   published). A new history is written straight from the placed batch (versions/_placed.sql),
   its rows published since ``version``; later versions' rows come in by history_insert. #}
{% from "versions/_placed.sql" import placed_rows %}
CREATE TABLE {{ target | qname }} AS
SELECT
  p.{{ key_hash | ident }}, p.{{ key_ord | ident }}, p.__anonsql_class_id,
  CAST('published' AS VARCHAR) AS __anonsql_state,
  CAST({{ version | lit }} AS INTEGER) AS __anonsql_since,
  CAST(NULL AS INTEGER) AS __anonsql_until,
{% for c in columns %}
  p.{{ c.name | ident }}{{ "," if not loop.last }}
{% endfor %}
FROM ({{ placed_rows(batch, recoding, columns, dims, suffix, 0, key_hash, key_ord) }}) AS p
WHERE NOT p.__anonsql_suppressed
