{# One row per person: a pseudonymous number (the order of a seeded hash of the person id, so
   it reveals nothing of the source's ids or order), the source id, the quasi-identifier vector
   standing for the person (their most frequent one; ties to the smallest codes), and the
   person's row count. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  CAST(ROW_NUMBER() OVER (ORDER BY MD5({{ salt | lit }} || CAST(person_id AS VARCHAR))) AS BIGINT) AS person,
  person_id
{% for d in dims %}
  , {{ d.code | ident }}
{% endfor %}
  , CAST(rows_of_person AS BIGINT) AS n
FROM (
  SELECT
    v.*,
    SUM(n) OVER (PARTITION BY person_id) AS rows_of_person,
    ROW_NUMBER() OVER (
      PARTITION BY person_id
      ORDER BY n DESC{% for d in dims %}, {{ d.code | ident }}{% endfor %}

    ) AS choice
  FROM {{ vectors | qname }} AS v
) AS ranked
WHERE choice = 1
