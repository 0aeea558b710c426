{# |Γ_φ| per functional dependency: distinct projections on X ∪ Y. #}
SELECT fd, instances FROM (
{% for fd in fds %}
{% if not loop.first %}
UNION ALL
{% endif %}
SELECT {{ loop.index0 | lit }} AS fd, COUNT(*) AS instances
FROM (
  SELECT DISTINCT {{ (fd.lhs + fd.rhs) | map('ident') | join(', ') }}
  FROM {{ relation | qname }} AS r
) AS p
{% endfor %}
) AS counts
ORDER BY fd
