{#
  Shared macros of the person-level (1:M) violation queries.

  Two shapes of relation are checked:
  * rows of persons (``person`` given): several rows per person, one sensitive item per row;
    a person's fingerprint is the set of their distinct items, built here as a sorted array;
  * one row per person (``person`` none): ``column`` already holds the person's fingerprint
    (anonsql publishes it as a sorted list of generalized items).

  They define the CTEs members(person, q0, q1, ...) — each person with the quasi-identifier
  vector(s) they appear under — and fingerprints(person, fp). Internal names (person, q<i>,
  fp) keep user column names from colliding with the query's own.
#}
{% from "privacy/_classes.sql" import class_keys %}
{% macro members(relation, qids, person) -%}
members AS (
{% if person %}
  SELECT DISTINCT {{ person | ident }} AS person{% for q in qids %}, {{ q | ident }} AS {{ ('q' ~ loop.index0) | ident }}{% endfor %}

{% else %}
  SELECT ROW_NUMBER() OVER () AS person{% for q in qids %}, {{ q | ident }} AS {{ ('q' ~ loop.index0) | ident }}{% endfor %}

{% endif %}
  FROM {{ relation | qname }} AS r
)
{%- endmacro %}
{% macro members_and_fingerprints(relation, qids, person, column) -%}
{% if person %}
members AS (
  SELECT DISTINCT {{ person | ident }} AS person{% for q in qids %}, {{ q | ident }} AS {{ ('q' ~ loop.index0) | ident }}{% endfor %}

  FROM {{ relation | qname }} AS r
),
fingerprints AS (
  SELECT person, ARRAY_AGG(item ORDER BY item) AS fp
  FROM (
    SELECT DISTINCT {{ person | ident }} AS person, {{ column | ident }} AS item
    FROM {{ relation | qname }} AS r
  ) AS items
  GROUP BY person
)
{%- else %}
people AS (
  SELECT ROW_NUMBER() OVER () AS person{% for q in qids %}, {{ q | ident }} AS {{ ('q' ~ loop.index0) | ident }}{% endfor %}, {{ column | ident }} AS fp
  FROM {{ relation | qname }} AS r
),
members AS (
  SELECT person{% for q in qids %}, {{ ('q' ~ loop.index0) | ident }}{% endfor %} FROM people
),
fingerprints AS (
  SELECT person, fp FROM people
)
{%- endif %}
{%- endmacro %}
{# Per class: persons, and the persons of its most frequent fingerprint. #}
{% macro fingerprint_classes(qids) -%}
cells AS (
  SELECT {{ class_keys(qids) }}, f.fp, COUNT(*) AS n
  FROM members AS m
  JOIN fingerprints AS f ON f.person = m.person
  GROUP BY {{ class_keys(qids) }}, f.fp
),
fingerprint_classes AS (
  SELECT {{ class_keys(qids) }}, CAST(SUM(n) AS BIGINT) AS class_persons, MAX(n) AS top_persons,
    COUNT(*) AS fingerprints
  FROM cells
  GROUP BY {{ class_keys(qids) }}
)
{%- endmacro %}
{% macro fingerprint_buckets() -%}
buckets AS (
  SELECT fp, COUNT(*) AS persons FROM fingerprints GROUP BY fp
)
{%- endmacro %}
