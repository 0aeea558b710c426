{# Violations of the paper's l requirement on buckets (distinct l-diversity): buckets with fewer
   than l distinct labels (categorical) or raw values (numeric). #}
{% from "personalized/_macros.sql" import attribute_name, per_attribute %}
SELECT {{ attribute_name('attr', names) }} AS attribute, bucket, distinct_values
FROM (
  SELECT attr, bucket,
    CASE WHEN COUNT(raw) = 0 THEN COUNT(DISTINCT node) ELSE COUNT(DISTINCT raw) END AS distinct_values
  FROM {{ cells | qname }}
  GROUP BY attr, bucket
) AS b
WHERE distinct_values < {{ per_attribute('attr', l) }}
