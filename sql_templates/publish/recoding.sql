{# Distinct quasi-identifier vectors of the source -> their published values. Mondrian's
   partition is a function of the vector, so the published relation can be a view that joins
   the source to this map. The coded vectors are made distinct first (narrow integer keys),
   then joined to their published values.
   The join to the partitions' values is fenced in a MATERIALIZED CTE: PostgreSQL knows no
   statistics for the DISTINCT's output, estimated one row after the leaf joins and
   nested-looped every vector over every partition (34 s at 1e5 rows, hours at 1e6).
   The rows come out distinct without a second DISTINCT: (codes, pid) are distinct, the join
   to `generalized` is one row per pid, and each leaf rank is one leaf value.
   ``distinct_rows``: the rows hold each vector once already (Partitioning.rows_are_vectors),
   so they are joined as they are, with no DISTINCT and no fence (PostgreSQL knows their
   statistics): at 1e7 rows PostgreSQL grouped 885,387 distinct rows again and wrote the
   fenced join to disk (7.0 s).
   A versioned release (anonsql.versions.layout) also takes each coded column's code
   (``{column}__anonsql_code``) from its label dictionary (``labels``, for the columns
   ``coded``); a suppressed partition's labels have none. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
WITH coded AS {{ "" if distinct_rows else "MATERIALIZED " }}(
  SELECT r.*, {% for d in dims %}g.{{ ('g' ~ d.index) | ident }}, {% if d.column in coded %}g.{{ ('code' ~ d.index) | ident }}, {% endif %}{% endfor %}g.suppressed
  FROM (
    SELECT {{ "" if distinct_rows else "DISTINCT " }}{% for d in dims %}{{ d.code | ident }}, {% endfor %}pid
    FROM {{ rows | qname }}
  ) AS r
{% if coded %}
  JOIN (
    SELECT p.*{% for d in dims if d.column in coded %}, {{ ('c' ~ d.index) | ident }}.__anonsql_code AS {{ ('code' ~ d.index) | ident }}{% endfor %}

    FROM {{ generalized | qname }} AS p
{% for d in dims if d.column in coded %}
{% set c = ('c' ~ d.index) | ident %}
    LEFT JOIN {{ labels | qname }} AS {{ c }}
      ON {{ c }}.__anonsql_column = {{ d.column | lit }} AND {{ c }}.__anonsql_label = p.{{ ('g' ~ d.index) | ident }}
{% endfor %}
  ) AS g ON g.pid = r.pid
{% else %}
  JOIN {{ generalized | qname }} AS g ON g.pid = r.pid
{% endif %}
)
SELECT
{% for d in dims %}
{% if d.is_numeric %}
  r.{{ d.code | ident }} AS {{ d.column | ident }},
{% else %}
  {{ ('l' ~ d.index) | ident }}.value AS {{ d.column | ident }},
{% endif %}
  r.{{ ('g' ~ d.index) | ident }} AS {{ (d.column ~ suffix) | ident }},
{% if d.column in coded %}
  r.{{ ('code' ~ d.index) | ident }} AS {{ (d.column ~ '__anonsql_code') | ident }},
{% endif %}
{% endfor %}
  r.suppressed AS {{ '__anonsql_suppressed' | ident }},
  r.pid AS {{ '__anonsql_pid' | ident }}
FROM coded AS r
{% for d in dims if not d.is_numeric %}
JOIN {{ leaves[d.index] | qname }} AS {{ ('l' ~ d.index) | ident }}
  ON {{ ('l' ~ d.index) | ident }}.leaf_rank = r.{{ d.code | ident }}
{% endfor %}
