{% from "personalized/_macros.sql" import consented %}
{# Rows of the source, and rows whose consent column holds a value meaning consent (NULL never
   does); without a consent column every row consents. #}
SELECT
  COUNT(*) AS source_rows,
{% if consent is none %}
  COUNT(*) AS consenting_rows
{% else %}
  COALESCE(SUM(CASE WHEN {{ consented('src', consent, consent_values) }} THEN 1 ELSE 0 END), 0) AS consenting_rows
{% endif %}
FROM {{ source | qname }} AS src
