{# Each published person -> a per-run pseudonym (random order, neither stable across runs nor
   derivable from the source ids), their class, record count and the class's published
   quasi-identifier labels g<i>. Suppressed persons are left out. Holds the source ids: never
   granted. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  person_id,
  CAST(ROW_NUMBER() OVER (ORDER BY draw) AS BIGINT) AS person,
  pid,
  records
{% for d in dims %}
  , {{ ('g' ~ d.index) | ident }}
{% endfor %}
FROM (
  SELECT
    p.person_id,
    RANDOM() AS draw,
    r.pid,
    p.n AS records
{% for d in dims %}
    , c.{{ ('g' ~ d.index) | ident }}
{% endfor %}
  FROM {{ rows | qname }} AS r
  JOIN {{ persons | qname }} AS p ON p.person = r.person
  JOIN {{ labels | qname }} AS c ON c.pid = r.pid
) AS drawn
