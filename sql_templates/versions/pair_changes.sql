{# Per earlier version ``a`` and per published class: the rows inserted since ``a`` (in the
   new version, not in ``a``) and the rows deleted since ``a`` (in ``a``, not in the new
   version), from the version's rows and the rows that left alone: what an analyst who kept version ``a`` learns by
   differencing it against the new one. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT v.version AS __anonsql_version_a, CAST('inserted' AS VARCHAR) AS __anonsql_change,
  {% for c in columns %}h.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}
FROM {{ versions | qname }} AS v
JOIN {{ rows | qname }} AS h ON h.__anonsql_since > v.version
WHERE v.version < {{ version | lit }}
UNION ALL
SELECT v.version AS __anonsql_version_a, CAST('deleted' AS VARCHAR) AS __anonsql_change,
  {% for c in columns %}h.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}
FROM {{ versions | qname }} AS v
JOIN {{ left | qname }} AS h
  ON h.__anonsql_since <= v.version AND h.__anonsql_until > v.version
WHERE v.version < {{ version | lit }}
