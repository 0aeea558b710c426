{# Violations of the paper's l requirement on buckets (distinct l-diversity) of categorical
   attributes: buckets with fewer than l distinct labels. Numeric buckets are not checked: their
   distinctness is on raw values, which zero-inflated columns cannot meet (digest F5); their
   repeats are counted in the bucket statistics instead. #}
{% from "personalized/_macros.sql" import attribute_name, per_attribute %}
SELECT {{ attribute_name('attr', names) }} AS attribute, bucket, distinct_values
FROM (
  SELECT attr, bucket, COUNT(DISTINCT node) AS distinct_values
  FROM {{ cells | qname }}
  WHERE raw IS NULL
  GROUP BY attr, bucket
) AS b
WHERE distinct_values < {{ per_attribute('attr', l) }}
