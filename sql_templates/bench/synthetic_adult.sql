CREATE TABLE {{ target | qname }} AS
WITH numbered AS (
  SELECT ROW_NUMBER() OVER (ORDER BY age, workclass, education_num, marital_status, occupation,
                                     race, sex, native_country, final_weight) - 1 AS rn, *
  FROM {{ adult | qname }}
), draws AS (
  SELECT r.range AS i,
         HASH(r.range, {{ seed | lit }}) % (SELECT COUNT(*) FROM numbered) AS pick,
         CAST(HASH(r.range, {{ (seed + 1) | lit }}) % 5 AS INTEGER) - 2 AS shift
  FROM range({{ rows | lit }}) AS r
)
SELECT d.i AS person_id,
       LEAST(90, GREATEST(17, n.age + d.shift)) AS age,
       n.workclass, n.education_num, n.marital_status, n.occupation, n.race, n.sex,
       n.native_country, n.hours_per_week, n."class"
FROM draws AS d JOIN numbered AS n ON n.rn = d.pick
