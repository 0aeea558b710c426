{# Each row of the working table takes the cluster of its quasi-identifier vector (the
   dependency-preserving algorithms decide per vector, so the release can join on it). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT g.pid{% for c in payload %}, r.{{ c | ident }}{% endfor %}

FROM {{ rows | qname }} AS r
JOIN {{ groups | qname }} AS g
  ON {% for d in dims %}g.{{ d.code | ident }} = r.{{ d.code | ident }}{{ " AND " if not loop.last }}{% endfor %};

DROP TABLE {{ rows | qname }};

ALTER TABLE {{ target | qname }} RENAME TO {{ rows.name | ident }}
