{# The distinct values (as text) of one column over the consenting rows (every row without a
   consent column), ascending: the leaves of a sensitive attribute's default flat taxonomy. #}
{% from "personalized/_macros.sql" import consented %}
SELECT DISTINCT CAST(src.{{ column | ident }} AS VARCHAR) AS value
FROM {{ source | qname }} AS src
WHERE src.{{ column | ident }} IS NOT NULL
{% if consent is not none %}
  AND {{ consented('src', consent, consent_values) }}
{% endif %}

