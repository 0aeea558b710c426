{# Per sensitive attribute: the largest confidence of an adversary who knows a target's QID
   group and every row's published cell (the tuple-level links), in any leaf value or term:
   max over groups and leaves of covering cells / group size. #}
{% from "personalized/_covered.sql" import covered %}
WITH {{ covered(cells, cell_leaves, members, True) }}
SELECT cov.attr, MAX(CAST(cov.n AS DOUBLE) / CAST(s.size AS DOUBLE)) AS confidence
FROM covered AS cov
JOIN unit_sizes AS s ON s.attr = cov.attr AND s.unit = cov.unit
GROUP BY cov.attr
ORDER BY cov.attr
