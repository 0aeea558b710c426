{# Rows in classes keyed by `keys` (the quasi-identifiers and the columns an adversary may
   know) that hold fewer than `k` individuals: rows, or with `person` the distinct persons of
   the class. `weighted`: `relation` is grouped already, `__anonsql_rows` rows per group. #}
SELECT COALESCE(SUM(rows_in), 0) AS small_rows
FROM (
  SELECT
{% if weighted %}
    SUM(r.{{ '__anonsql_rows' | ident }}) AS rows_in, SUM(r.{{ '__anonsql_rows' | ident }}) AS individuals
{% elif person %}
    COUNT(*) AS rows_in, COUNT(DISTINCT r.{{ person | ident }}) AS individuals
{% else %}
    COUNT(*) AS rows_in, COUNT(*) AS individuals
{% endif %}
  FROM {{ relation | qname }} AS r
  GROUP BY {% for c in keys %}r.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}

) AS classes
WHERE individuals < {{ k | lit }}
