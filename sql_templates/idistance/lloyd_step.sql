{# One Lloyd iteration's aggregates: per reference point, the rows assigned to it and the
   row-weighted sums of their coordinates (Python divides and moves the centers). #}
{% from "idistance/_nearest.sql" import nearest %}
WITH {{ nearest(vectors, centers, dims) }}
SELECT ref, SUM(n) AS n{% for d in dims %}, SUM(n * {{ ('u' ~ d.index) | ident }}) AS {{ ('s' ~ d.index) | ident }}{% endfor %}

FROM nearest
WHERE rank_ = 1
GROUP BY ref
ORDER BY ref
