{# Violations of the minimum bucket size on a published release: buckets of fewer cells than
   their attribute's bucket_k (`bucket_k`: attribute name -> size). #}
SELECT attribute, bucket, COUNT(*) AS bucket_size
FROM {{ buckets | qname }}
GROUP BY attribute, bucket
HAVING COUNT(*) < CASE attribute{% for name, size in bucket_k %} WHEN {{ name | lit }} THEN {{ size | lit }}{% endfor %} END
