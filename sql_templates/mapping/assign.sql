{# Each row takes the group of its quasi-identifier vector. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT g.pid{% for c in payload %}, r.{{ c | ident }}{% endfor %}

FROM {{ rows | qname }} AS r
JOIN {{ vectors | qname }} AS v
  ON {% for d in dims %}v.{{ d.code | ident }} = r.{{ d.code | ident }}{{ " AND " if not loop.last }}{% endfor %}

JOIN {{ groups | qname }} AS g ON g.vid = v.vid;

DROP TABLE {{ rows | qname }};

ALTER TABLE {{ target | qname }} RENAME TO {{ rows.name | ident }}
