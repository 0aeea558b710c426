{# One lattice node's equivalence classes: the node id of every quasi-identifier (node<i>), the
   sensitive code when ``code`` is given (one row per class and code), and the rows. With
   ``below``, only classes of fewer rows (those k-anonymity suppresses). #}
SELECT
{% for c in columns %}
  {{ c | ident }} AS {{ ('node' ~ loop.index0) | ident }},
{% endfor %}
{% if code %}
  {{ code | ident }} AS code,
{% endif %}
  CAST(SUM(n) AS BIGINT) AS n
FROM {{ freq | qname }}
GROUP BY {% for c in columns %}{{ c | ident }}{{ ', ' if not loop.last or code }}{% endfor %}{% if code %}{{ code | ident }}{% endif %}

{% if below is not none %}
HAVING SUM(n) < {{ below | lit }}
{% endif %}
