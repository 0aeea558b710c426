CREATE TABLE {{ target | qname }} AS
WITH numbered AS (
  SELECT ROW_NUMBER() OVER (ORDER BY age, workclass, education_num, marital_status, occupation,
                                     race, sex, native_country, final_weight) - 1 AS rn, *
  FROM {{ adult | qname }}
), draws AS (
  SELECT r.range AS i,
         HASH(r.range, {{ seed | lit }}) % (SELECT COUNT(*) FROM numbered) AS person,
         HASH(r.range, {{ (seed + 1) | lit }}) % (SELECT COUNT(*) FROM numbered) AS job,
         CAST(HASH(r.range, {{ (seed + 2) | lit }}) % 5 AS INTEGER) - 2 AS shift
  FROM range({{ rows | lit }}) AS r
)
SELECT d.i AS person_id,
       LEAST(90, GREATEST(17, p.age + d.shift)) AS age,
       j.workclass, j.education_num, p.marital_status, j.occupation, p.race, p.sex,
       p.native_country, j.hours_per_week, j."class"
FROM draws AS d
JOIN numbered AS p ON p.rn = d.person
JOIN numbered AS j ON j.rn = d.job
