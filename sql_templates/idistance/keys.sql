{# iDistance keys: reference index * C + distance to the nearest reference point, where C
   exceeds every distance in the unit cube, so the partitions do not interleave. #}
{% from "idistance/_nearest.sql" import nearest %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
WITH {{ nearest(vectors, centers, dims) }}
SELECT vid, ref * {{ spacing | lit }} + SQRT(d2) AS idistance_key
FROM nearest
WHERE rank_ = 1
