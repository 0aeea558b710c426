{#
  Persons of the synthetic 1:M data set: one row per person, QIDs drawn by hashing the person id
  with the seed (a different salt per attribute), so the table is a function of (rows, seed).
  age: 17 + two uniform 0..36 draws (a triangle over 17..89, mode 53); zip: uniform over
  10000..19999; sex: F/M about half each; marital: five values at 45/30/13/7/5 %.
#}
CREATE TABLE {{ target | qname }} AS
SELECT CAST(r.range AS BIGINT) AS person_id,
       CAST(17 + HASH(r.range, {{ seed | lit }}, 'age1') % 37
               + HASH(r.range, {{ seed | lit }}, 'age2') % 37 AS INTEGER) AS age,
       CAST(10000 + HASH(r.range, {{ seed | lit }}, 'zip') % 10000 AS INTEGER) AS zip,
       CASE WHEN HASH(r.range, {{ seed | lit }}, 'sex') % 2 = 0 THEN 'F' ELSE 'M' END AS sex,
       CASE
         WHEN HASH(r.range, {{ seed | lit }}, 'marital') % 100 < 45 THEN 'Married'
         WHEN HASH(r.range, {{ seed | lit }}, 'marital') % 100 < 75 THEN 'Never-married'
         WHEN HASH(r.range, {{ seed | lit }}, 'marital') % 100 < 88 THEN 'Divorced'
         WHEN HASH(r.range, {{ seed | lit }}, 'marital') % 100 < 95 THEN 'Widowed'
         ELSE 'Separated'
       END AS marital
FROM range({{ rows | lit }}) AS r
