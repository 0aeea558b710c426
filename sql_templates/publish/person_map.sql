{# Each source person -> a per-run pseudonym (random order, so it is neither stable across runs
   nor derivable from the source ids), their class, fingerprint bucket and published
   quasi-identifier labels g<i>. Holds the source ids: never granted. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  person_id,
  CAST(ROW_NUMBER() OVER (ORDER BY draw) AS BIGINT) AS person,
  pid
{% if fingerprints %}
  , safb
{% endif %}
{% for d in dims %}
  , {{ ('g' ~ d.index) | ident }}
{% endfor %}
FROM (
  SELECT
    p.person_id,
    RANDOM() AS draw,
    r.pid
{% if fingerprints %}
    , r.{{ 's0' | ident }} AS safb
{% endif %}
{% for d in dims %}
    , g.{{ ('g' ~ d.index) | ident }}
{% endfor %}
  FROM {{ rows | qname }} AS r
  JOIN {{ persons | qname }} AS p ON p.person = r.person
  JOIN {{ generalized | qname }} AS g ON g.pid = r.pid
) AS drawn
