{#
  Shared CTEs of the identity-reserved violation queries (rows of persons: a person column,
  quasi-identifiers, a sensitive column; several rows per person).

  ir_coded(cls, q0.., person, person_records, code): every row with its class number (rank of
  its quasi-identifier vector; NULLs equal), its person's records in the class, and its
  sensitive value code (rank; NULL is a value).
  ir_classes(cls, q0..): each class's quasi-identifier values.

  by_count (the record-count protection): a class is refined by the individuals' record counts
  within it, since a release linking records by Id_num publishes every individual's count and
  an attacker who knows the target's count narrows the class to the individuals sharing it.
  The classes are then (quasi-identifiers, person_records) and ir_classes carries the count.
  ir_class_stats(cls, persons, records, max_person_records, sa_values, max_value_records,
  max_value_persons): n_Q, |Q|, max |R(p)|, m_Q, max |R(s)| and max |P(s)|, all within the class.
  Internal names keep user column names from colliding with the query's own.
#}
{% macro ir_base(relation, qids, person, column, by_count=false) -%}
ir_coded AS (
  SELECT
{% set ns = namespace(keys=[]) %}
{% for q in qids %}{% set ns.keys = ns.keys + [('q' ~ loop.index0) | ident] %}{% endfor %}
{% if by_count %}{% set ns.keys = ns.keys + ['person_records'] %}{% endif %}
    {% if ns.keys %}DENSE_RANK() OVER (ORDER BY {{ ns.keys | join(', ') }}){% else %}1{% endif %} AS cls,
    {% for q in qids %}{{ ('q' ~ loop.index0) | ident }}, {% endfor %}person, person_records,
    DENSE_RANK() OVER (ORDER BY sa) AS code
  FROM (
    SELECT {% for q in qids %}{{ q | ident }} AS {{ ('q' ~ loop.index0) | ident }}, {% endfor %}{{ person | ident }} AS person, {{ column | ident }} AS sa,
      COUNT(*) OVER (PARTITION BY {% for q in qids %}{{ q | ident }}, {% endfor %}{{ person | ident }}) AS person_records
    FROM {{ relation | qname }} AS r
  ) AS rows_of_persons
),
ir_classes AS (
  SELECT DISTINCT cls{% for q in qids %}, {{ ('q' ~ loop.index0) | ident }}{% endfor %}{% if by_count %}, person_records{% endif %}

  FROM ir_coded
),
ir_person_stats AS (
  SELECT cls, person, COUNT(*) AS records FROM ir_coded GROUP BY cls, person
),
ir_value_stats AS (
  SELECT cls, code, COUNT(*) AS records, COUNT(DISTINCT person) AS persons
  FROM ir_coded
  GROUP BY cls, code
),
ir_class_stats AS (
  SELECT p.cls, p.persons, p.records, p.max_person_records,
    v.sa_values, v.max_value_records, v.max_value_persons
  FROM (
    SELECT cls, COUNT(*) AS persons, CAST(SUM(records) AS BIGINT) AS records,
      MAX(records) AS max_person_records
    FROM ir_person_stats
    GROUP BY cls
  ) AS p
  JOIN (
    SELECT cls, COUNT(*) AS sa_values, MAX(records) AS max_value_records,
      MAX(persons) AS max_value_persons
    FROM ir_value_stats
    GROUP BY cls
  ) AS v ON v.cls = p.cls
)
{%- endmacro %}
{# The class's quasi-identifier columns under the user's names (from ir_classes AS c). #}
{% macro ir_class_columns(qids, by_count=false) -%}
{% for q in qids %}c.{{ ('q' ~ loop.index0) | ident }} AS {{ q | ident }}, {% endfor %}{% if by_count %}c.person_records AS records_per_individual, {% endif %}
{%- endmacro %}
{#
  EIR l-diversity: for each class whose minimum hitting set of the individuals' sensitive sets
  is below l, ir_witnesses(cls, hitting_set) gives that minimum (Theorem 3.1).

  The values of one-value individuals are in every hitting set (ξ, the paper's Algorithm 2),
  so the search starts from them. It then branches on the values of one un-hit individual (the
  one with the fewest values): every hitting set holds one of them. A state whose values hit
  every individual is a hitting set of size depth; no state grows past l - 1 values, so the
  smallest witness is the minimum when it is below l. States: at most the product of the l - 1
  smallest un-hit set sizes per class.
#}
{% macro ir_search(l) -%}
ir_person_values AS MATERIALIZED (
  SELECT DISTINCT cls, person, code FROM ir_coded
),
ir_sets AS MATERIALIZED (
  SELECT cls, person, ARRAY_AGG(code ORDER BY code) AS items, COUNT(*) AS size
  FROM ir_person_values
  GROUP BY cls, person
),
ir_forced AS (
  SELECT cls, ARRAY_AGG(code ORDER BY code) AS items, COUNT(*) AS size
  FROM (
    SELECT DISTINCT v.cls, v.code
    FROM ir_person_values AS v
    JOIN ir_sets AS s ON s.cls = v.cls AND s.person = v.person
    WHERE s.size = 1
  ) AS f
  GROUP BY cls
),
ir_search AS (
  SELECT c.cls, COALESCE(f.items, CAST([] AS BIGINT[])) AS chosen, COALESCE(f.size, 0) AS depth
  FROM ir_class_stats AS c
  LEFT JOIN ir_forced AS f ON f.cls = c.cls
  WHERE COALESCE(f.size, 0) < {{ l | lit }}
  UNION ALL
  SELECT s.cls, ARRAY_APPEND(s.chosen, v.code), s.depth + 1
  FROM ir_search AS s
  JOIN LATERAL (
    SELECT u.person
    FROM ir_sets AS u
    WHERE u.cls = s.cls AND NOT (u.items && s.chosen)
    ORDER BY u.size, u.person
    LIMIT 1
  ) AS pick ON TRUE
  JOIN ir_person_values AS v ON v.cls = s.cls AND v.person = pick.person
  WHERE s.depth < {{ l | lit }} - 1
),
ir_witnesses AS (
  SELECT s.cls, MIN(s.depth) AS hitting_set
  FROM ir_search AS s
  WHERE NOT EXISTS (
    SELECT 1 FROM ir_sets AS u WHERE u.cls = s.cls AND NOT (u.items && s.chosen)
  )
  GROUP BY s.cls
)
{%- endmacro %}
{% macro share_exceeded(top, share, total, epsilon) -%}
CAST({{ top }} AS DOUBLE) > CAST({{ share | lit }} AS DOUBLE) * CAST({{ total }} AS DOUBLE) + CAST({{ epsilon | lit }} AS DOUBLE)
{%- endmacro %}
