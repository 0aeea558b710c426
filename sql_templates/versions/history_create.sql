{# The version's rows of a new history, written straight from the placed batch
   (versions/_placed.sql): one row per published source row, with its key, its class and the
   version it was published in (``since``). What analysts read is a view of this table that
   projects the published columns (versions/version_view): no filter for a query plan to count.
   Rows leave it for the private ``left`` table (versions/history_leave), so the two together
   are the release's history, written once (at 1e8 rows each copy of it costs ~30 s). #}
{% from "versions/_placed.sql" import placed_rows %}
CREATE TABLE {{ target | qname }} AS
SELECT
  p.{{ key_hash | ident }}, p.{{ key_ord | ident }}, p.__anonsql_class_id,
  CAST({{ version | lit }} AS INTEGER) AS __anonsql_since,
{% for c in columns %}
  p.{{ c.name | ident }}{{ "," if not loop.last }}
{% endfor %}
FROM ({{ placed_rows(batch, recoding, columns, dims, suffix, 0, key_hash, key_ord) }}) AS p
WHERE NOT p.__anonsql_suppressed
