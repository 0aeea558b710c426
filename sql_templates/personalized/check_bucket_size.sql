{# Violations of the minimum bucket size: buckets of fewer than the attribute's bucket_k cells. #}
{% from "personalized/_macros.sql" import attribute_name, per_attribute %}
SELECT {{ attribute_name('attr', names) }} AS attribute, bucket, COUNT(*) AS bucket_size
FROM {{ cells | qname }}
GROUP BY attr, bucket
HAVING COUNT(*) < {{ per_attribute('attr', bucket_k) }}
