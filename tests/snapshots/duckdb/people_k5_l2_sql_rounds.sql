DESCRIBE "main"."people";
SELECT
  COUNT(*) AS "rows"
  , COUNT(*) - COUNT("age") AS "nulls0"
  , CAST(MIN("age") AS DOUBLE) AS "min0"
  , CAST(MAX("age") AS DOUBLE) AS "max0"
  , COUNT(*) - COUNT("city") AS "nulls1"
  , COUNT(*) - COUNT("income") AS "nulls2"
  , CAST(MIN("income") AS DOUBLE) AS "min2"
  , CAST(MAX("income") AS DOUBLE) AS "max2"
  , COUNT(DISTINCT "disease") + MAX(CASE WHEN "disease" IS NULL THEN 1 ELSE 0 END) AS "distinct0"
FROM "main"."people" AS src;
SELECT
  COUNT("name") AS "rows0",
  COUNT(DISTINCT "name") AS "distinct0"
FROM "main"."people" AS src;
WITH determines AS (
  SELECT "disease" AS p
    , MIN(CASE WHEN "age" IS NULL THEN NULL ELSE HASH("age") END) AS "lo0"
    , MAX(CASE WHEN "age" IS NULL THEN NULL ELSE HASH("age") END) AS "hi0"
    , MIN(CASE WHEN "city" IS NULL THEN NULL ELSE HASH("city") END) AS "lo1"
    , MAX(CASE WHEN "city" IS NULL THEN NULL ELSE HASH("city") END) AS "hi1"
    , MIN(CASE WHEN "income" IS NULL THEN NULL ELSE HASH("income") END) AS "lo2"
    , MAX(CASE WHEN "income" IS NULL THEN NULL ELSE HASH("income") END) AS "hi2"
  FROM "main"."people" AS s
  GROUP BY "disease"
)
SELECT
  CASE WHEN MIN("lo0") <> MAX("hi0") THEN 1 ELSE 0 END AS "several0",
  SUM(CASE WHEN "lo0" <> "hi0" THEN 1 ELSE 0 END) AS "split0",
  CASE WHEN MIN("lo1") <> MAX("hi1") THEN 1 ELSE 0 END AS "several1",
  SUM(CASE WHEN "lo1" <> "hi1" THEN 1 ELSE 0 END) AS "split1",
  CASE WHEN MIN("lo2") <> MAX("hi2") THEN 1 ELSE 0 END AS "several2",
  SUM(CASE WHEN "lo2" <> "hi2" THEN 1 ELSE 0 END) AS "split2",
  1 AS screened
FROM determines;
WITH determines AS (
  SELECT "note" AS p
    , MIN(CASE WHEN "age" IS NULL THEN NULL ELSE HASH("age") END) AS "lo0"
    , MAX(CASE WHEN "age" IS NULL THEN NULL ELSE HASH("age") END) AS "hi0"
    , MIN(CASE WHEN "city" IS NULL THEN NULL ELSE HASH("city") END) AS "lo1"
    , MAX(CASE WHEN "city" IS NULL THEN NULL ELSE HASH("city") END) AS "hi1"
    , MIN(CASE WHEN "income" IS NULL THEN NULL ELSE HASH("income") END) AS "lo2"
    , MAX(CASE WHEN "income" IS NULL THEN NULL ELSE HASH("income") END) AS "hi2"
  FROM "main"."people" AS s
  GROUP BY "note"
)
SELECT
  CASE WHEN MIN("lo0") <> MAX("hi0") THEN 1 ELSE 0 END AS "several0",
  SUM(CASE WHEN "lo0" <> "hi0" THEN 1 ELSE 0 END) AS "split0",
  CASE WHEN MIN("lo1") <> MAX("hi1") THEN 1 ELSE 0 END AS "several1",
  SUM(CASE WHEN "lo1" <> "hi1" THEN 1 ELSE 0 END) AS "split1",
  CASE WHEN MIN("lo2") <> MAX("hi2") THEN 1 ELSE 0 END AS "several2",
  SUM(CASE WHEN "lo2" <> "hi2" THEN 1 ELSE 0 END) AS "split2",
  1 AS screened
FROM determines;
SELECT schema_name FROM information_schema.schemata
WHERE STARTS_WITH(schema_name, 'anonsql_work_')
ORDER BY schema_name;
ATTACH ':memory:' AS "anonsql_work_RUN";
SELECT table_schema, table_name, table_type
FROM information_schema.tables
WHERE (table_schema = 'anon_private' AND table_name IN ('people__versions'));
SELECT table_schema, table_name, table_type
FROM information_schema.tables
WHERE (table_schema = 'anon_private' AND table_name IN ('people__left_rows', 'people__history', 'people__labels'));
CREATE TABLE "anonsql_work_RUN"."v_repeated" AS
SELECT r.h FROM (SELECT HASH(s."name", s."age", s."city", s."income", s."disease", s."note") AS h FROM "main"."people" AS s) AS r
GROUP BY r.h HAVING COUNT(*) > 1;
CREATE TEMP VIEW "temp"."anonsql_work_RUN__v_batch" AS
SELECT s.*, HASH(s."name", s."age", s."city", s."income", s."disease", s."note") AS "__anonsql_row_hash", CAST(1 AS BIGINT) AS "__anonsql_row_ord"
FROM "main"."people" AS s
WHERE HASH(s."name", s."age", s."city", s."income", s."disease", s."note") NOT IN (SELECT p.h FROM "anonsql_work_RUN"."v_repeated" AS p)
UNION ALL
SELECT x.*, ROW_NUMBER() OVER (
  PARTITION BY x."__anonsql_row_hash"
  ORDER BY x."name", x."age", x."city", x."income", x."disease", x."note") AS "__anonsql_row_ord"
FROM (
  SELECT s.*, HASH(s."name", s."age", s."city", s."income", s."disease", s."note") AS "__anonsql_row_hash" FROM "main"."people" AS s
) AS x
WHERE x."__anonsql_row_hash" IN (SELECT p.h FROM "anonsql_work_RUN"."v_repeated" AS p);
SELECT COUNT(*) AS n,
  COALESCE(SUM(k.h % 1000000007), 0) AS first_sum,
  COALESCE(SUM(k.h % 998244353), 0) AS second_sum
FROM (
  SELECT r."__anonsql_row_hash" AS h FROM "temp"."anonsql_work_RUN__v_batch" AS r
) AS k;
CREATE TABLE "anonsql_work_RUN"."leaves1" AS SELECT * FROM "__anonsql_arrow_N";
CREATE TABLE "anonsql_work_RUN"."nodes1" AS SELECT * FROM "__anonsql_arrow_N";
CREATE TABLE "anonsql_work_RUN"."ancestors" AS SELECT * FROM "__anonsql_arrow_N";
CREATE TABLE "anonsql_work_RUN"."rows" AS

SELECT
  CAST(0 AS BIGINT) AS pid
  , src."age" AS "q0"
  , "l1".leaf_rank AS "q1"
  , src."income" AS "q2"

  , "r0".code AS "s0"
FROM "temp"."anonsql_work_RUN__v_batch" AS src
JOIN "anonsql_work_RUN"."leaves1" AS "l1"
  ON "l1".value = CAST(src."city" AS VARCHAR)

JOIN (
  SELECT d.value, CAST(DENSE_RANK() OVER (ORDER BY d.value ASC NULLS LAST) - 1 AS INTEGER) AS code
  FROM (SELECT DISTINCT "disease" AS value FROM "temp"."anonsql_work_RUN__v_batch") AS d
) AS "r0"
  ON "r0".value IS NOT DISTINCT FROM src."disease";
SELECT COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS r;
SELECT "s0" AS code, COUNT(*) AS n
FROM "anonsql_work_RUN"."rows"
GROUP BY "s0"
ORDER BY code;
CREATE TABLE "anonsql_work_RUN"."done" AS SELECT * FROM "anonsql_work_RUN"."rows" WHERE FALSE;
SELECT MIN(pid), COUNT(*) FROM "anonsql_work_RUN"."rows";
SELECT
  w.pid AS pid,
  COUNT(*) AS n
  , MIN(w."q0") AS "min0"
  , MAX(w."q0") AS "max0"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q0") AS "med0"
  , MIN(w."q1") AS "min1"
  , MAX(w."q1") AS "max1"
  , MIN(w."q2") AS "min2"
  , MAX(w."q2") AS "max2"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE w.pid >= 0 AND w.pid < 20000
GROUP BY w.pid
ORDER BY w.pid;
SELECT
  w.pid AS pid,
  0 AS dim,
CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t0"
GROUP BY w.pid, CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
a.node_id AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE p."t1"
GROUP BY w.pid, a.node_id
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t2"
GROUP BY w.pid, CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END;
SELECT
  w.pid AS pid,
  0 AS dim,
CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t0"
GROUP BY w.pid, CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END, w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
a.node_id AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE p."t1"
GROUP BY w.pid, a.node_id, w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t2"
GROUP BY w.pid, CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END, w."s0";
INSERT INTO "anonsql_work_RUN"."done"
SELECT w.* FROM "anonsql_work_RUN"."rows" AS w
WHERE w.pid >= 0 AND w.pid < 20000 AND NOT EXISTS (SELECT 1 FROM "__anonsql_scratch_anonsql_work_RUN_split" AS s WHERE s.pid = w.pid);
CREATE TABLE "anonsql_work_RUN"."rows_next" AS
SELECT d.new_pid AS pid, w."q0", w."q1", w."q2", w."s0"
FROM (
  SELECT w.*, s.dim AS split_dim, s.depth AS split_depth
    , CASE s.dim WHEN 1 THEN w."q1" END AS split_leaf
  FROM "anonsql_work_RUN"."rows" AS w
  JOIN "__anonsql_scratch_anonsql_work_RUN_split" AS s ON s.pid = w.pid
) AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
LEFT JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
JOIN "__anonsql_scratch_anonsql_work_RUN_decisions" AS d
  ON d.pid = w.pid
  AND d.bin = CASE w.split_dim
    WHEN 0 THEN CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
    WHEN 2 THEN CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END
    ELSE a.node_id
  END
UNION ALL
SELECT w.pid, w."q0", w."q1", w."q2", w."s0"
FROM "anonsql_work_RUN"."rows" AS w
WHERE NOT (w.pid >= 0 AND w.pid < 20000);
DROP TABLE "anonsql_work_RUN"."rows";
ALTER TABLE "anonsql_work_RUN"."rows_next" RENAME TO "rows";
SELECT MIN(pid), COUNT(*) FROM "anonsql_work_RUN"."rows";
SELECT
  w.pid AS pid,
  COUNT(*) AS n
  , MIN(w."q0") AS "min0"
  , MAX(w."q0") AS "max0"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q0") AS "med0"
  , MIN(w."q1") AS "min1"
  , MAX(w."q1") AS "max1"
  , MIN(w."q2") AS "min2"
  , MAX(w."q2") AS "max2"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE w.pid >= 1 AND w.pid < 20001
GROUP BY w.pid
ORDER BY w.pid;
SELECT
  w.pid AS pid,
  0 AS dim,
CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t0"
GROUP BY w.pid, CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
a.node_id AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE p."t1"
GROUP BY w.pid, a.node_id
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t2"
GROUP BY w.pid, CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END;
SELECT
  w.pid AS pid,
  0 AS dim,
CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t0"
GROUP BY w.pid, CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END, w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
a.node_id AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE p."t1"
GROUP BY w.pid, a.node_id, w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t2"
GROUP BY w.pid, CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END, w."s0";
INSERT INTO "anonsql_work_RUN"."done"
SELECT w.* FROM "anonsql_work_RUN"."rows" AS w
WHERE w.pid >= 1 AND w.pid < 20001 AND NOT EXISTS (SELECT 1 FROM "__anonsql_scratch_anonsql_work_RUN_split" AS s WHERE s.pid = w.pid);
CREATE TABLE "anonsql_work_RUN"."rows_next" AS
SELECT d.new_pid AS pid, w."q0", w."q1", w."q2", w."s0"
FROM (
  SELECT w.*, s.dim AS split_dim, s.depth AS split_depth
    , CASE s.dim WHEN 1 THEN w."q1" END AS split_leaf
  FROM "anonsql_work_RUN"."rows" AS w
  JOIN "__anonsql_scratch_anonsql_work_RUN_split" AS s ON s.pid = w.pid
) AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
LEFT JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
JOIN "__anonsql_scratch_anonsql_work_RUN_decisions" AS d
  ON d.pid = w.pid
  AND d.bin = CASE w.split_dim
    WHEN 0 THEN CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
    WHEN 2 THEN CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END
    ELSE a.node_id
  END
UNION ALL
SELECT w.pid, w."q0", w."q1", w."q2", w."s0"
FROM "anonsql_work_RUN"."rows" AS w
WHERE NOT (w.pid >= 1 AND w.pid < 20001);
DROP TABLE "anonsql_work_RUN"."rows";
ALTER TABLE "anonsql_work_RUN"."rows_next" RENAME TO "rows";
SELECT MIN(pid), COUNT(*) FROM "anonsql_work_RUN"."rows";
SELECT
  w.pid AS pid,
  COUNT(*) AS n
  , MIN(w."q0") AS "min0"
  , MAX(w."q0") AS "max0"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q0") AS "med0"
  , MIN(w."q1") AS "min1"
  , MAX(w."q1") AS "max1"
  , MIN(w."q2") AS "min2"
  , MAX(w."q2") AS "max2"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE w.pid >= 3 AND w.pid < 20003
GROUP BY w.pid
ORDER BY w.pid;
SELECT
  w.pid AS pid,
  0 AS dim,
CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t0"
GROUP BY w.pid, CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
a.node_id AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE p."t1"
GROUP BY w.pid, a.node_id
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t2"
GROUP BY w.pid, CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END;
SELECT
  w.pid AS pid,
  0 AS dim,
CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t0"
GROUP BY w.pid, CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END, w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
a.node_id AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE p."t1"
GROUP BY w.pid, a.node_id, w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t2"
GROUP BY w.pid, CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END, w."s0";
INSERT INTO "anonsql_work_RUN"."done"
SELECT w.* FROM "anonsql_work_RUN"."rows" AS w
WHERE w.pid >= 3 AND w.pid < 20003 AND NOT EXISTS (SELECT 1 FROM "__anonsql_scratch_anonsql_work_RUN_split" AS s WHERE s.pid = w.pid);
CREATE TABLE "anonsql_work_RUN"."rows_next" AS
SELECT d.new_pid AS pid, w."q0", w."q1", w."q2", w."s0"
FROM (
  SELECT w.*, s.dim AS split_dim, s.depth AS split_depth
    , CASE s.dim WHEN 1 THEN w."q1" END AS split_leaf
  FROM "anonsql_work_RUN"."rows" AS w
  JOIN "__anonsql_scratch_anonsql_work_RUN_split" AS s ON s.pid = w.pid
) AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
LEFT JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
JOIN "__anonsql_scratch_anonsql_work_RUN_decisions" AS d
  ON d.pid = w.pid
  AND d.bin = CASE w.split_dim
    WHEN 0 THEN CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
    WHEN 2 THEN CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END
    ELSE a.node_id
  END
UNION ALL
SELECT w.pid, w."q0", w."q1", w."q2", w."s0"
FROM "anonsql_work_RUN"."rows" AS w
WHERE NOT (w.pid >= 3 AND w.pid < 20003);
DROP TABLE "anonsql_work_RUN"."rows";
ALTER TABLE "anonsql_work_RUN"."rows_next" RENAME TO "rows";
SELECT MIN(pid), COUNT(*) FROM "anonsql_work_RUN"."rows";
SELECT
  w.pid AS pid,
  COUNT(*) AS n
  , MIN(w."q0") AS "min0"
  , MAX(w."q0") AS "max0"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q0") AS "med0"
  , MIN(w."q1") AS "min1"
  , MAX(w."q1") AS "max1"
  , MIN(w."q2") AS "min2"
  , MAX(w."q2") AS "max2"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE w.pid >= 7 AND w.pid < 20007
GROUP BY w.pid
ORDER BY w.pid;
SELECT
  w.pid AS pid,
  0 AS dim,
CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t0"
GROUP BY w.pid, CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
a.node_id AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE p."t1"
GROUP BY w.pid, a.node_id
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t2"
GROUP BY w.pid, CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END;
SELECT
  w.pid AS pid,
  0 AS dim,
CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t0"
GROUP BY w.pid, CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END, w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
a.node_id AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE p."t1"
GROUP BY w.pid, a.node_id, w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t2"
GROUP BY w.pid, CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END, w."s0";
INSERT INTO "anonsql_work_RUN"."done"
SELECT w.* FROM "anonsql_work_RUN"."rows" AS w
WHERE w.pid >= 7 AND w.pid < 20007 AND NOT EXISTS (SELECT 1 FROM "__anonsql_scratch_anonsql_work_RUN_split" AS s WHERE s.pid = w.pid);
CREATE TABLE "anonsql_work_RUN"."rows_next" AS
SELECT d.new_pid AS pid, w."q0", w."q1", w."q2", w."s0"
FROM (
  SELECT w.*, s.dim AS split_dim, s.depth AS split_depth
    , CASE s.dim WHEN 1 THEN w."q1" END AS split_leaf
  FROM "anonsql_work_RUN"."rows" AS w
  JOIN "__anonsql_scratch_anonsql_work_RUN_split" AS s ON s.pid = w.pid
) AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
LEFT JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
JOIN "__anonsql_scratch_anonsql_work_RUN_decisions" AS d
  ON d.pid = w.pid
  AND d.bin = CASE w.split_dim
    WHEN 0 THEN CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
    WHEN 2 THEN CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END
    ELSE a.node_id
  END
UNION ALL
SELECT w.pid, w."q0", w."q1", w."q2", w."s0"
FROM "anonsql_work_RUN"."rows" AS w
WHERE NOT (w.pid >= 7 AND w.pid < 20007);
DROP TABLE "anonsql_work_RUN"."rows";
ALTER TABLE "anonsql_work_RUN"."rows_next" RENAME TO "rows";
SELECT MIN(pid), COUNT(*) FROM "anonsql_work_RUN"."rows";
SELECT
  w.pid AS pid,
  COUNT(*) AS n
  , MIN(w."q0") AS "min0"
  , MAX(w."q0") AS "max0"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q0") AS "med0"
  , MIN(w."q1") AS "min1"
  , MAX(w."q1") AS "max1"
  , MIN(w."q2") AS "min2"
  , MAX(w."q2") AS "max2"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE w.pid >= 15 AND w.pid < 20015
GROUP BY w.pid
ORDER BY w.pid;
SELECT
  w.pid AS pid,
  0 AS dim,
CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t0"
GROUP BY w.pid, CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
a.node_id AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE p."t1"
GROUP BY w.pid, a.node_id
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t2"
GROUP BY w.pid, CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END;
SELECT
  w.pid AS pid,
  0 AS dim,
CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t0"
GROUP BY w.pid, CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END, w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
a.node_id AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE p."t1"
GROUP BY w.pid, a.node_id, w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t2"
GROUP BY w.pid, CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END, w."s0";
INSERT INTO "anonsql_work_RUN"."done"
SELECT w.* FROM "anonsql_work_RUN"."rows" AS w
WHERE w.pid >= 15 AND w.pid < 20015 AND NOT EXISTS (SELECT 1 FROM "__anonsql_scratch_anonsql_work_RUN_split" AS s WHERE s.pid = w.pid);
CREATE TABLE "anonsql_work_RUN"."rows_next" AS
SELECT d.new_pid AS pid, w."q0", w."q1", w."q2", w."s0"
FROM (
  SELECT w.*, s.dim AS split_dim, s.depth AS split_depth
    , CASE s.dim WHEN 1 THEN w."q1" END AS split_leaf
  FROM "anonsql_work_RUN"."rows" AS w
  JOIN "__anonsql_scratch_anonsql_work_RUN_split" AS s ON s.pid = w.pid
) AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
LEFT JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
JOIN "__anonsql_scratch_anonsql_work_RUN_decisions" AS d
  ON d.pid = w.pid
  AND d.bin = CASE w.split_dim
    WHEN 0 THEN CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
    WHEN 2 THEN CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END
    ELSE a.node_id
  END
UNION ALL
SELECT w.pid, w."q0", w."q1", w."q2", w."s0"
FROM "anonsql_work_RUN"."rows" AS w
WHERE NOT (w.pid >= 15 AND w.pid < 20015);
DROP TABLE "anonsql_work_RUN"."rows";
ALTER TABLE "anonsql_work_RUN"."rows_next" RENAME TO "rows";
SELECT MIN(pid), COUNT(*) FROM "anonsql_work_RUN"."rows";
SELECT
  w.pid AS pid,
  COUNT(*) AS n
  , MIN(w."q0") AS "min0"
  , MAX(w."q0") AS "max0"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q0") AS "med0"
  , MIN(w."q1") AS "min1"
  , MAX(w."q1") AS "max1"
  , MIN(w."q2") AS "min2"
  , MAX(w."q2") AS "max2"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE w.pid >= 31 AND w.pid < 20031
GROUP BY w.pid
ORDER BY w.pid;
SELECT
  w.pid AS pid,
  0 AS dim,
CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t0"
GROUP BY w.pid, CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
a.node_id AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE p."t1"
GROUP BY w.pid, a.node_id
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t2"
GROUP BY w.pid, CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END;
SELECT
  w.pid AS pid,
  0 AS dim,
CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t0"
GROUP BY w.pid, CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END, w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
a.node_id AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE p."t1"
GROUP BY w.pid, a.node_id, w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t2"
GROUP BY w.pid, CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END, w."s0";
INSERT INTO "anonsql_work_RUN"."done"
SELECT w.* FROM "anonsql_work_RUN"."rows" AS w
WHERE w.pid >= 31 AND w.pid < 20031 AND NOT EXISTS (SELECT 1 FROM "__anonsql_scratch_anonsql_work_RUN_split" AS s WHERE s.pid = w.pid);
CREATE TABLE "anonsql_work_RUN"."rows_next" AS
SELECT d.new_pid AS pid, w."q0", w."q1", w."q2", w."s0"
FROM (
  SELECT w.*, s.dim AS split_dim, s.depth AS split_depth
    , CASE s.dim WHEN 1 THEN w."q1" END AS split_leaf
  FROM "anonsql_work_RUN"."rows" AS w
  JOIN "__anonsql_scratch_anonsql_work_RUN_split" AS s ON s.pid = w.pid
) AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
LEFT JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
JOIN "__anonsql_scratch_anonsql_work_RUN_decisions" AS d
  ON d.pid = w.pid
  AND d.bin = CASE w.split_dim
    WHEN 0 THEN CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
    WHEN 2 THEN CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END
    ELSE a.node_id
  END
UNION ALL
SELECT w.pid, w."q0", w."q1", w."q2", w."s0"
FROM "anonsql_work_RUN"."rows" AS w
WHERE NOT (w.pid >= 31 AND w.pid < 20031);
DROP TABLE "anonsql_work_RUN"."rows";
ALTER TABLE "anonsql_work_RUN"."rows_next" RENAME TO "rows";
SELECT MIN(pid), COUNT(*) FROM "anonsql_work_RUN"."rows";
SELECT
  w.pid AS pid,
  COUNT(*) AS n
  , MIN(w."q0") AS "min0"
  , MAX(w."q0") AS "max0"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q0") AS "med0"
  , MIN(w."q1") AS "min1"
  , MAX(w."q1") AS "max1"
  , MIN(w."q2") AS "min2"
  , MAX(w."q2") AS "max2"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE w.pid >= 66 AND w.pid < 20066
GROUP BY w.pid
ORDER BY w.pid;
SELECT
  w.pid AS pid,
  0 AS dim,
CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t0"
GROUP BY w.pid, CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
a.node_id AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE p."t1"
GROUP BY w.pid, a.node_id
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n
  , MIN(w."q0") AS "lo0"
  , MAX(w."q0") AS "hi0"
  , MIN(w."q1") AS "lo1"
  , MAX(w."q1") AS "hi1"
  , MIN(w."q2") AS "lo2"
  , MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t2"
GROUP BY w.pid, CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END;
SELECT
  w.pid AS pid,
  0 AS dim,
CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t0"
GROUP BY w.pid, CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END, w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
a.node_id AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE p."t1"
GROUP BY w.pid, a.node_id, w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
w."s0" AS sa,  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
WHERE p."t2"
GROUP BY w.pid, CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END, w."s0";
INSERT INTO "anonsql_work_RUN"."done"
SELECT w.* FROM "anonsql_work_RUN"."rows" AS w
WHERE w.pid >= 66 AND w.pid < 20066 AND NOT EXISTS (SELECT 1 FROM "__anonsql_scratch_anonsql_work_RUN_split" AS s WHERE s.pid = w.pid);
CREATE TABLE "anonsql_work_RUN"."rows_next" AS
SELECT d.new_pid AS pid, w."q0", w."q1", w."q2", w."s0"
FROM (
  SELECT w.*, s.dim AS split_dim, s.depth AS split_depth
    , CASE s.dim WHEN 1 THEN w."q1" END AS split_leaf
  FROM "anonsql_work_RUN"."rows" AS w
  JOIN "__anonsql_scratch_anonsql_work_RUN_split" AS s ON s.pid = w.pid
) AS w
JOIN "__anonsql_scratch_anonsql_work_RUN_pstate" AS p ON p.pid = w.pid
LEFT JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
JOIN "__anonsql_scratch_anonsql_work_RUN_decisions" AS d
  ON d.pid = w.pid
  AND d.bin = CASE w.split_dim
    WHEN 0 THEN CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
    WHEN 2 THEN CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END
    ELSE a.node_id
  END
UNION ALL
SELECT w.pid, w."q0", w."q1", w."q2", w."s0"
FROM "anonsql_work_RUN"."rows" AS w
WHERE NOT (w.pid >= 66 AND w.pid < 20066);
DROP TABLE "anonsql_work_RUN"."rows";
ALTER TABLE "anonsql_work_RUN"."rows_next" RENAME TO "rows";
SELECT MIN(pid), COUNT(*) FROM "anonsql_work_RUN"."rows";
SELECT
  w.pid AS pid,
  COUNT(*) AS n
  , MIN(w."q0") AS "min0"
  , MAX(w."q0") AS "max0"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q0") AS "med0"
  , MIN(w."q1") AS "min1"
  , MAX(w."q1") AS "max1"
  , MIN(w."q2") AS "min2"
  , MAX(w."q2") AS "max2"
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE w.pid >= 117 AND w.pid < 20117
GROUP BY w.pid
ORDER BY w.pid;
INSERT INTO "anonsql_work_RUN"."done"
SELECT * FROM "anonsql_work_RUN"."rows" WHERE pid >= 117 AND pid < 20117;
DELETE FROM "anonsql_work_RUN"."rows" WHERE pid >= 117 AND pid < 20117;
SELECT MIN(pid), COUNT(*) FROM "anonsql_work_RUN"."rows";
CREATE TABLE "anonsql_work_RUN"."parts" AS SELECT * FROM "__anonsql_arrow_N";
DROP TABLE IF EXISTS "anonsql_work_RUN"."rows";
ALTER TABLE "anonsql_work_RUN"."done" RENAME TO "rows";
CREATE TABLE "anonsql_work_RUN"."generalized" AS
SELECT
  p.pid,
  p.suppressed
  , CASE WHEN p."lo0" = p."hi0" THEN CAST(p."lo0" AS VARCHAR)
         ELSE '[' || CAST(p."lo0" AS VARCHAR) || ', ' || CAST(p."hi0" AS VARCHAR) || ']' END
    AS "g0"
  , "h1".label AS "g1"
  , CASE WHEN p."lo2" = p."hi2" THEN CAST(p."lo2" AS VARCHAR)
         ELSE '[' || CAST(p."lo2" AS VARCHAR) || ', ' || CAST(p."hi2" AS VARCHAR) || ']' END
    AS "g2"
FROM "anonsql_work_RUN"."parts" AS p
JOIN "anonsql_work_RUN"."nodes1" AS "h1"
  ON "h1".node_id = p."node1";
CREATE TABLE "anonsql_work_RUN"."attributes" AS SELECT * FROM "__anonsql_arrow_N";
CREATE TABLE "anonsql_work_RUN"."hierarchy_nodes" AS SELECT * FROM "__anonsql_arrow_N";
SELECT table_schema, table_name, table_type
FROM information_schema.tables
WHERE (table_schema = 'anon' AND table_name IN ('people'));
SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'anon';
CREATE SCHEMA IF NOT EXISTS "anon";
SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'anon_private';
CREATE SCHEMA IF NOT EXISTS "anon_private";
BEGIN;
SELECT table_schema, table_name, table_type
FROM information_schema.tables
WHERE (table_schema = 'anon' AND table_name IN ('people__by_person', 'people', 'people__classes', 'people__certificate', 'people__metrics', 'people__fingerprints', 'people__groups', 'people__group_values', 'people__buckets', 'people__group_buckets', 'people__sa_taxonomy', 'people__recoding', 'people__attributes', 'people__hierarchy_nodes', 'people__person_map', 'people__item_map', 'people__source', 'people__released', 'people__released_by_person', 'people__population')) OR (table_schema = 'anon_private' AND table_name IN ('people__released_by_person', 'people__released', 'people__source', 'people__recoding', 'people__attributes', 'people__hierarchy_nodes', 'people__person_map', 'people__item_map', 'people__population'));
CREATE TABLE "anon_private"."people__attributes" AS SELECT * FROM "anonsql_work_RUN"."attributes";
CREATE TABLE "anon_private"."people__hierarchy_nodes" AS SELECT * FROM "anonsql_work_RUN"."hierarchy_nodes";
SELECT table_schema, table_name, table_type
FROM information_schema.tables
WHERE (table_schema = 'anon_private' AND table_name IN ('people__version_rows', 'people__held', 'people__left_rows', 'people__versions', 'people__version_groups', 'people__labels', 'people__history'));
CREATE TABLE "anon_private"."people__recoding" AS
WITH coded AS MATERIALIZED (
  SELECT r.*, g."g0", g."g1", g."g2", g.suppressed
  FROM (
    SELECT DISTINCT "q0", "q1", "q2", pid
    FROM "anonsql_work_RUN"."rows"
  ) AS r
  JOIN "anonsql_work_RUN"."generalized" AS g ON g.pid = r.pid
)
SELECT
  r."q0" AS "age",
  r."g0" AS "age__generalized",
  "l1".value AS "city",
  r."g1" AS "city__generalized",
  r."q2" AS "income",
  r."g2" AS "income__generalized",
  r.suppressed AS "__anonsql_suppressed",
  r.pid AS "__anonsql_pid"
FROM coded AS r
JOIN "anonsql_work_RUN"."leaves1" AS "l1"
  ON "l1".leaf_rank = r."q1";
CREATE VIEW "anon_private"."people__source" AS SELECT * FROM "main"."people" AS s;
CREATE TABLE "anon_private"."people__version_rows" AS
SELECT
  p."__anonsql_row_hash", p."__anonsql_row_ord", p.__anonsql_class_id,
  CAST(1 AS INTEGER) AS __anonsql_since,
  p."age",
  p."city",
  p."income",
  p."disease",
  p."note"
FROM (SELECT
  b."__anonsql_row_hash", b."__anonsql_row_ord",
  CAST(m."__anonsql_pid" AS BIGINT) + 0 AS __anonsql_class_id,
  m."__anonsql_suppressed" AS __anonsql_suppressed,
  m."age__generalized" AS "age",
  m."city__generalized" AS "city",
  m."income__generalized" AS "income",
  b."disease" AS "disease",
  b."note" AS "note"
FROM "temp"."anonsql_work_RUN__v_batch" AS b
JOIN "anon_private"."people__recoding" AS m
  ON m."age" = b."age" AND m."city" = CAST(b."city" AS VARCHAR) AND m."income" = b."income") AS p
WHERE NOT p.__anonsql_suppressed;
SELECT table_schema, table_name, table_type
FROM information_schema.tables
WHERE (table_schema = 'anon_private' AND table_name IN ('people__held'));
CREATE TABLE "anon_private"."people__held" AS
SELECT b."__anonsql_row_hash", b."__anonsql_row_ord"
FROM "temp"."anonsql_work_RUN__v_batch" AS b
WHERE 1 = 0;
CREATE TABLE "anon_private"."people__left_rows" AS
SELECT r.*, CAST(NULL AS INTEGER) AS __anonsql_until
FROM "anon_private"."people__version_rows" AS r
WHERE 1 = 0;
CREATE TABLE "anon_private"."people__versions" (
  version INTEGER, created_at VARCHAR, published_rows BIGINT, inserted_rows BIGINT,
  deleted_rows BIGINT, held_rows BIGINT, pending_deletions BIGINT, source_checksum VARCHAR,
  spec_sha256 VARCHAR, run_id VARCHAR
);
CREATE VIEW "anon_private"."people__released" AS
SELECT r."age" AS "age", r."city" AS "city", r."income" AS "income", r."disease" AS "disease", r."note" AS "note"
FROM "anon_private"."people__version_rows" AS r;
CREATE VIEW "anon"."people" AS
SELECT r."age" AS "age", r."city" AS "city", r."income" AS "income", r."disease" AS "disease", r."note" AS "note"
FROM "anon_private"."people__version_rows" AS r;
INSERT INTO "anon_private"."people__versions" VALUES (
1, 'TIME', 400, 400, 0, 0, 0, '400:203227520498', 'SHA256', 'RUN');
SELECT table_schema, table_name, table_type
FROM information_schema.tables
WHERE (table_schema = 'anon_private' AND table_name IN ('people__version_groups'));
CREATE TABLE "anon_private"."people__version_groups" AS
SELECT g."age" AS "age", g."city" AS "city", g."income" AS "income", g."disease" AS "disease", g."note" AS "note", g."__anonsql_rows"
FROM (
  SELECT r."age", r."city", r."income", r."disease", r."note", CAST(COUNT(*) AS BIGINT) AS "__anonsql_rows"
  FROM "anon_private"."people__version_rows" AS r
  GROUP BY r."age", r."city", r."income", r."disease", r."note"
) AS g;
CREATE TABLE "anon"."people__classes" AS
SELECT
  v."age",
  v."city",
  v."income",
  CAST(SUM(CASE WHEN v.__anonsql_g0 = 0 THEN v.__anonsql_n END) AS BIGINT) AS class_size
  , COUNT(CASE WHEN v."__anonsql_g0" = 0 AND v."disease" IS NOT NULL THEN 1 END) AS "distinct disease"
FROM (
  SELECT r."age", r."city", r."income", r."disease", GROUPING(r."disease") AS "__anonsql_g0", SUM(r."__anonsql_rows") AS __anonsql_n
  FROM "anon_private"."people__version_groups" AS r
  GROUP BY GROUPING SETS ((r."age", r."city", r."income", r."disease"))
) AS v
GROUP BY v."age", v."city", v."income";
SELECT COUNT(*) FROM (
SELECT "age", "city", "income", CAST(SUM("__anonsql_rows") AS BIGINT) AS class_size
FROM "anon_private"."people__version_groups"
GROUP BY "age", "city", "income"
HAVING CAST(SUM("__anonsql_rows") AS BIGINT) < 5
) AS "v";
SELECT COUNT(*) FROM (
WITH sa_rows AS (
  SELECT "age" AS "q0", "city" AS "q1", "income" AS "q2", "disease" AS sa, "__anonsql_rows" AS w
  FROM "anon_private"."people__version_groups"
),
sa_frequencies AS (
  SELECT "q0", "q1", "q2", sa, CAST(SUM("w") AS BIGINT) AS n
  FROM sa_rows
  GROUP BY "q0", "q1", "q2", sa
),
class_stats AS (
  SELECT "q0", "q1", "q2", CAST(SUM(n) AS BIGINT) AS class_size, COUNT(*) AS distinct_values
  FROM sa_frequencies
  GROUP BY "q0", "q1", "q2"
)
SELECT "q0" AS "age", "q1" AS "city", "q2" AS "income", class_size, distinct_values
FROM class_stats
WHERE distinct_values < 2
) AS "v";
SELECT COALESCE(SUM(class_size), 0) AS n FROM "anon"."people__classes" AS c;
SELECT COUNT(*) FROM "anon_private"."people__version_rows" AS r;
DESCRIBE "anon_private"."people__version_groups";
WITH cells AS (
  SELECT "age" AS "k0", "city" AS "k1", "income" AS "k2", "disease" AS "a0", CAST(SUM("__anonsql_rows") AS BIGINT) AS n
FROM "anon_private"."people__version_groups" AS r
GROUP BY "age", "city", "income", "disease"
),
stats AS (
  SELECT GROUPING(a0) AS per_group, SUM(n) AS n, MAX(n) AS top
  FROM cells
  GROUP BY GROUPING SETS (("k0", "k1", "k2"), (a0))
)
SELECT
  CAST(COALESCE(SUM(CASE WHEN per_group = 1 THEN top END), 0) AS BIGINT) AS correct,
  CAST(COALESCE(SUM(CASE WHEN per_group = 1 THEN n END), 0) AS BIGINT) AS rows,
  COALESCE(MAX(CASE WHEN per_group = 1 THEN CAST(top AS DOUBLE) / CAST(n AS DOUBLE) END), 0.0) AS confidence,
  CAST(COALESCE(MAX(CASE WHEN per_group = 0 THEN n END), 0) AS BIGINT) AS baseline_correct,
  CAST(SUM(CASE WHEN per_group = 0 THEN 1 ELSE 0 END) AS BIGINT) AS domain
FROM stats;
WITH cells AS (
  SELECT "age" AS "k0", "city" AS "k1", "income" AS "k2", "note" AS "k3", "disease" AS "a0", CAST("__anonsql_rows" AS BIGINT) AS n
FROM "anon_private"."people__version_groups" AS r

),
stats AS (
  SELECT GROUPING(a0) AS per_group, SUM(n) AS n, MAX(n) AS top
  FROM cells
  GROUP BY GROUPING SETS (("k0", "k1", "k2", "k3"), (a0))
)
SELECT
  CAST(COALESCE(SUM(CASE WHEN per_group = 1 THEN top END), 0) AS BIGINT) AS correct,
  CAST(COALESCE(SUM(CASE WHEN per_group = 1 THEN n END), 0) AS BIGINT) AS rows,
  COALESCE(MAX(CASE WHEN per_group = 1 THEN CAST(top AS DOUBLE) / CAST(n AS DOUBLE) END), 0.0) AS confidence,
  CAST(COALESCE(MAX(CASE WHEN per_group = 0 THEN n END), 0) AS BIGINT) AS baseline_correct,
  CAST(SUM(CASE WHEN per_group = 0 THEN 1 ELSE 0 END) AS BIGINT) AS domain
FROM stats;
SELECT
  CAST(COUNT(*) AS BIGINT) AS groups,
  CAST(COALESCE(SUM(CASE WHEN g.n = 1 THEN 1 ELSE 0 END), 0) AS BIGINT) AS isolated,
  CAST(COALESCE(MIN(g.n), 0) AS BIGINT) AS smallest,
  CAST(COALESCE(SUM(g.n), 0) AS BIGINT) AS rows
FROM (SELECT "age" AS "k0", "city" AS "k1", "income" AS "k2", CAST(SUM("__anonsql_rows") AS BIGINT) AS n
FROM "anon_private"."people__version_groups" AS r
GROUP BY "age", "city", "income") AS g;
SELECT
  CAST(COUNT(*) AS BIGINT) AS groups,
  CAST(COALESCE(SUM(CASE WHEN g.n = 1 THEN 1 ELSE 0 END), 0) AS BIGINT) AS isolated,
  CAST(COALESCE(MIN(g.n), 0) AS BIGINT) AS smallest,
  CAST(COALESCE(SUM(g.n), 0) AS BIGINT) AS rows
FROM (SELECT "age" AS "k0", "city" AS "k1", "income" AS "k2", "note" AS "k3", CAST(SUM("__anonsql_rows") AS BIGINT) AS n
FROM "anon_private"."people__version_groups" AS r
GROUP BY "age", "city", "income", "note") AS g;
WITH
source_values AS MATERIALIZED (
  SELECT s."disease" AS "s0", s."age" AS "v0", GROUPING(s."age") AS "g0", s."city" AS "v1", GROUPING(s."city") AS "g1", s."income" AS "v2", GROUPING(s."income") AS "g2"
  FROM "anon_private"."people__source" AS s
  GROUP BY GROUPING SETS ((s."disease", s."age"), (s."disease", s."city"), (s."disease", s."income"))
),
"pairs0" AS (
  SELECT DISTINCT "s0", CAST(d."v0" AS DOUBLE) AS pos
  FROM source_values AS d
  WHERE d."g0" = 0
),
"ranges0" AS (
  SELECT "s0", lo, hi, n
  FROM (
    SELECT "s0", lo, hi, SUM(n) AS n
    FROM (
      SELECT r."disease" AS "s0", 
        CAST(SPLIT_PART(SUBSTRING(CAST(r."age" AS VARCHAR), 2, LENGTH(CAST(r."age" AS VARCHAR)) - 2), ', ', 1) AS DOUBLE) AS lo,
        CAST(SPLIT_PART(SUBSTRING(CAST(r."age" AS VARCHAR), 2, LENGTH(CAST(r."age" AS VARCHAR)) - 2), ', ', 2) AS DOUBLE) AS hi,
r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE CAST(r."age" AS VARCHAR) LIKE '[%'
    ) AS published
    GROUP BY "s0", lo, hi
  ) AS distinct_ranges
  WHERE lo < hi
),
"pairs1" AS (
  SELECT DISTINCT "s0", CAST(leaf.first_leaf AS DOUBLE) AS pos
  FROM source_values AS d
  JOIN "anon_private"."people__hierarchy_nodes" AS leaf
    ON leaf.attribute = 'city' AND leaf.leaf_count = 1
    AND leaf.label = CAST(d."v1" AS VARCHAR)
  WHERE d."g1" = 0
),
"ranges1" AS (
  SELECT "s0", lo, hi, n
  FROM (
    SELECT "s0", lo, hi, SUM(n) AS n
    FROM (
      SELECT r."disease" AS "s0", 
        CAST(node.first_leaf AS DOUBLE) AS lo,
        CAST(node.last_leaf AS DOUBLE) AS hi,
r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      JOIN "anon_private"."people__hierarchy_nodes" AS node
        ON node.attribute = 'city' AND node.leaf_count > 1
        AND node.label = CAST(r."city" AS VARCHAR)
    ) AS published
    GROUP BY "s0", lo, hi
  ) AS distinct_ranges
  WHERE lo < hi
),
"pairs2" AS (
  SELECT DISTINCT "s0", CAST(d."v2" AS DOUBLE) AS pos
  FROM source_values AS d
  WHERE d."g2" = 0
),
"ranges2" AS (
  SELECT "s0", lo, hi, n
  FROM (
    SELECT "s0", lo, hi, SUM(n) AS n
    FROM (
      SELECT r."disease" AS "s0", 
        CAST(SPLIT_PART(SUBSTRING(CAST(r."income" AS VARCHAR), 2, LENGTH(CAST(r."income" AS VARCHAR)) - 2), ', ', 1) AS DOUBLE) AS lo,
        CAST(SPLIT_PART(SUBSTRING(CAST(r."income" AS VARCHAR), 2, LENGTH(CAST(r."income" AS VARCHAR)) - 2), ', ', 2) AS DOUBLE) AS hi,
r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE CAST(r."income" AS VARCHAR) LIKE '[%'
    ) AS published
    GROUP BY "s0", lo, hi
  ) AS distinct_ranges
  WHERE lo < hi
),
events AS (
  SELECT 0 AS q, "s0", pos, 1 AS kind, CAST(NULL AS DOUBLE) AS rlo, CAST(NULL AS DOUBLE) AS rhi, CAST(0 AS BIGINT) AS n
  FROM "pairs0"
  UNION ALL
  SELECT 0 AS q, "s0", lo AS pos, 0 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT 0 AS q, "s0", hi AS pos, 2 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT 1 AS q, "s0", pos, 1 AS kind, CAST(NULL AS DOUBLE) AS rlo, CAST(NULL AS DOUBLE) AS rhi, CAST(0 AS BIGINT) AS n
  FROM "pairs1"
  UNION ALL
  SELECT 1 AS q, "s0", lo AS pos, 0 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT 1 AS q, "s0", hi AS pos, 2 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT 2 AS q, "s0", pos, 1 AS kind, CAST(NULL AS DOUBLE) AS rlo, CAST(NULL AS DOUBLE) AS rhi, CAST(0 AS BIGINT) AS n
  FROM "pairs2"
  UNION ALL
  SELECT 2 AS q, "s0", lo AS pos, 0 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges2"
  UNION ALL
  SELECT 2 AS q, "s0", hi AS pos, 2 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges2"
),
counted AS (
  SELECT q, "s0", kind, rlo, rhi, n,
    SUM(CASE WHEN kind = 1 THEN 1 ELSE 0 END) OVER (
      PARTITION BY q, "s0"
      ORDER BY pos, kind
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS seen
  FROM events
),
candidates AS (
  SELECT q, MAX(n) AS n,
    MAX(CASE WHEN kind = 2 THEN seen END) - MAX(CASE WHEN kind = 0 THEN seen END) AS found
  FROM counted
  WHERE kind <> 1
  GROUP BY q, "s0", rlo, rhi
)
SELECT q, CAST(SUM(CASE WHEN found = 1 THEN n ELSE 0 END) AS BIGINT) AS recovered
FROM candidates
GROUP BY q;
WITH
source_values AS MATERIALIZED (
  SELECT s."note" AS "s0", s."disease" AS "s1", s."age" AS "v0", GROUPING(s."age") AS "g0", s."city" AS "v1", GROUPING(s."city") AS "g1", s."income" AS "v2", GROUPING(s."income") AS "g2"
  FROM "anon_private"."people__source" AS s
  GROUP BY GROUPING SETS ((s."note", s."disease", s."age"), (s."note", s."disease", s."city"), (s."note", s."disease", s."income"))
),
"pairs0" AS (
  SELECT DISTINCT "s0", "s1", CAST(d."v0" AS DOUBLE) AS pos
  FROM source_values AS d
  WHERE d."g0" = 0
),
"ranges0" AS (
  SELECT "s0", "s1", lo, hi, n
  FROM (
    SELECT "s0", "s1", lo, hi, SUM(n) AS n
    FROM (
      SELECT r."note" AS "s0", r."disease" AS "s1", 
        CAST(SPLIT_PART(SUBSTRING(CAST(r."age" AS VARCHAR), 2, LENGTH(CAST(r."age" AS VARCHAR)) - 2), ', ', 1) AS DOUBLE) AS lo,
        CAST(SPLIT_PART(SUBSTRING(CAST(r."age" AS VARCHAR), 2, LENGTH(CAST(r."age" AS VARCHAR)) - 2), ', ', 2) AS DOUBLE) AS hi,
r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE CAST(r."age" AS VARCHAR) LIKE '[%'
    ) AS published
    GROUP BY "s0", "s1", lo, hi
  ) AS distinct_ranges
  WHERE lo < hi
),
"pairs1" AS (
  SELECT DISTINCT "s0", "s1", CAST(leaf.first_leaf AS DOUBLE) AS pos
  FROM source_values AS d
  JOIN "anon_private"."people__hierarchy_nodes" AS leaf
    ON leaf.attribute = 'city' AND leaf.leaf_count = 1
    AND leaf.label = CAST(d."v1" AS VARCHAR)
  WHERE d."g1" = 0
),
"ranges1" AS (
  SELECT "s0", "s1", lo, hi, n
  FROM (
    SELECT "s0", "s1", lo, hi, SUM(n) AS n
    FROM (
      SELECT r."note" AS "s0", r."disease" AS "s1", 
        CAST(node.first_leaf AS DOUBLE) AS lo,
        CAST(node.last_leaf AS DOUBLE) AS hi,
r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      JOIN "anon_private"."people__hierarchy_nodes" AS node
        ON node.attribute = 'city' AND node.leaf_count > 1
        AND node.label = CAST(r."city" AS VARCHAR)
    ) AS published
    GROUP BY "s0", "s1", lo, hi
  ) AS distinct_ranges
  WHERE lo < hi
),
"pairs2" AS (
  SELECT DISTINCT "s0", "s1", CAST(d."v2" AS DOUBLE) AS pos
  FROM source_values AS d
  WHERE d."g2" = 0
),
"ranges2" AS (
  SELECT "s0", "s1", lo, hi, n
  FROM (
    SELECT "s0", "s1", lo, hi, SUM(n) AS n
    FROM (
      SELECT r."note" AS "s0", r."disease" AS "s1", 
        CAST(SPLIT_PART(SUBSTRING(CAST(r."income" AS VARCHAR), 2, LENGTH(CAST(r."income" AS VARCHAR)) - 2), ', ', 1) AS DOUBLE) AS lo,
        CAST(SPLIT_PART(SUBSTRING(CAST(r."income" AS VARCHAR), 2, LENGTH(CAST(r."income" AS VARCHAR)) - 2), ', ', 2) AS DOUBLE) AS hi,
r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE CAST(r."income" AS VARCHAR) LIKE '[%'
    ) AS published
    GROUP BY "s0", "s1", lo, hi
  ) AS distinct_ranges
  WHERE lo < hi
),
events AS (
  SELECT 0 AS q, "s0", "s1", pos, 1 AS kind, CAST(NULL AS DOUBLE) AS rlo, CAST(NULL AS DOUBLE) AS rhi, CAST(0 AS BIGINT) AS n
  FROM "pairs0"
  UNION ALL
  SELECT 0 AS q, "s0", "s1", lo AS pos, 0 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT 0 AS q, "s0", "s1", hi AS pos, 2 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT 1 AS q, "s0", "s1", pos, 1 AS kind, CAST(NULL AS DOUBLE) AS rlo, CAST(NULL AS DOUBLE) AS rhi, CAST(0 AS BIGINT) AS n
  FROM "pairs1"
  UNION ALL
  SELECT 1 AS q, "s0", "s1", lo AS pos, 0 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT 1 AS q, "s0", "s1", hi AS pos, 2 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT 2 AS q, "s0", "s1", pos, 1 AS kind, CAST(NULL AS DOUBLE) AS rlo, CAST(NULL AS DOUBLE) AS rhi, CAST(0 AS BIGINT) AS n
  FROM "pairs2"
  UNION ALL
  SELECT 2 AS q, "s0", "s1", lo AS pos, 0 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges2"
  UNION ALL
  SELECT 2 AS q, "s0", "s1", hi AS pos, 2 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges2"
),
counted AS (
  SELECT q, "s0", "s1", kind, rlo, rhi, n,
    SUM(CASE WHEN kind = 1 THEN 1 ELSE 0 END) OVER (
      PARTITION BY q, "s0", "s1"
      ORDER BY pos, kind
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS seen
  FROM events
),
candidates AS (
  SELECT q, MAX(n) AS n,
    MAX(CASE WHEN kind = 2 THEN seen END) - MAX(CASE WHEN kind = 0 THEN seen END) AS found
  FROM counted
  WHERE kind <> 1
  GROUP BY q, "s0", "s1", rlo, rhi
)
SELECT q, CAST(SUM(CASE WHEN found = 1 THEN n ELSE 0 END) AS BIGINT) AS recovered
FROM candidates
GROUP BY q;
SELECT COUNT(*) AS classes, SUM(class_size) AS published, SUM(class_size * class_size) AS squares
FROM "anon"."people__classes" AS c;
SELECT
COALESCE(SUM(r.class_size), 0) AS published
  , SUM(CASE WHEN CAST(r."age" AS VARCHAR) LIKE '[%' AND 72.0 > 0
         THEN r.class_size * (CAST(SPLIT_PART(SUBSTRING(CAST(r."age" AS VARCHAR), 2, LENGTH(CAST(r."age" AS VARCHAR)) - 2), ', ', 2) AS DOUBLE)
             - CAST(SPLIT_PART(SUBSTRING(CAST(r."age" AS VARCHAR), 2, LENGTH(CAST(r."age" AS VARCHAR)) - 2), ', ', 1) AS DOUBLE)) / 72.0
         ELSE 0 END) AS "penalty0"
  , 0 AS "unmatched0"
  , SUM(CASE WHEN "h1".label IS NOT NULL THEN r.class_size * "h1".ncp
         WHEN SUBSTRING(CAST(r."city" AS VARCHAR), 1, 1) = '{' AND (LENGTH(CAST(r."city" AS VARCHAR)) - LENGTH(REPLACE(CAST(r."city" AS VARCHAR), ',', '')) + 1) > 1 THEN r.class_size * CAST((LENGTH(CAST(r."city" AS VARCHAR)) - LENGTH(REPLACE(CAST(r."city" AS VARCHAR), ',', '')) + 1) AS DOUBLE) / 8
         ELSE 0 END) AS "penalty1"
  , SUM(CASE WHEN "h1".label IS NULL AND NOT SUBSTRING(CAST(r."city" AS VARCHAR), 1, 1) = '{' THEN r.class_size ELSE 0 END) AS "unmatched1"
  , SUM(CASE WHEN CAST(r."income" AS VARCHAR) LIKE '[%' AND 190000.0 > 0
         THEN r.class_size * (CAST(SPLIT_PART(SUBSTRING(CAST(r."income" AS VARCHAR), 2, LENGTH(CAST(r."income" AS VARCHAR)) - 2), ', ', 2) AS DOUBLE)
             - CAST(SPLIT_PART(SUBSTRING(CAST(r."income" AS VARCHAR), 2, LENGTH(CAST(r."income" AS VARCHAR)) - 2), ', ', 1) AS DOUBLE)) / 190000.0
         ELSE 0 END) AS "penalty2"
  , 0 AS "unmatched2"
FROM "anon"."people__classes" AS r
LEFT JOIN "anon_private"."people__hierarchy_nodes" AS "h1"
  ON "h1".attribute = 'city'
  AND "h1".label = CAST(r."city" AS VARCHAR);
SELECT class_size, CAST(COUNT(*) AS BIGINT) AS classes
FROM "anon"."people__classes" AS c
GROUP BY class_size
ORDER BY class_size;
CREATE TABLE "anon"."people__metrics" AS SELECT * FROM "__anonsql_arrow_N";
WITH class_rows AS (
  SELECT CAST(COUNT(*) AS BIGINT) AS n
  FROM "temp"."anonsql_work_RUN__v_batch" AS r
  GROUP BY "age", "city", "income")
SELECT n AS class_size, CAST(COUNT(*) AS BIGINT) AS classes
FROM class_rows
GROUP BY n
ORDER BY n;
WITH
source_values AS MATERIALIZED (
  SELECT s."note" AS "s0", s."age" AS "v0", GROUPING(s."age") AS "g0", s."city" AS "v1", GROUPING(s."city") AS "g1", s."income" AS "v2", GROUPING(s."income") AS "g2"
  FROM "anon_private"."people__source" AS s
  GROUP BY GROUPING SETS ((s."note", s."age"), (s."note", s."city"), (s."note", s."income"))
),
"pairs0" AS (
  SELECT DISTINCT "s0", CAST(d."v0" AS DOUBLE) AS pos
  FROM source_values AS d
  WHERE d."g0" = 0
),
"ranges0" AS (
  SELECT "s0", lo, hi, n
  FROM (
    SELECT "s0", lo, hi, SUM(n) AS n
    FROM (
      SELECT r."note" AS "s0", 
        CAST(SPLIT_PART(SUBSTRING(CAST(r."age" AS VARCHAR), 2, LENGTH(CAST(r."age" AS VARCHAR)) - 2), ', ', 1) AS DOUBLE) AS lo,
        CAST(SPLIT_PART(SUBSTRING(CAST(r."age" AS VARCHAR), 2, LENGTH(CAST(r."age" AS VARCHAR)) - 2), ', ', 2) AS DOUBLE) AS hi,
r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE CAST(r."age" AS VARCHAR) LIKE '[%'
    ) AS published
    GROUP BY "s0", lo, hi
  ) AS distinct_ranges
  WHERE lo < hi
),
"pairs1" AS (
  SELECT DISTINCT "s0", CAST(leaf.first_leaf AS DOUBLE) AS pos
  FROM source_values AS d
  JOIN "anon_private"."people__hierarchy_nodes" AS leaf
    ON leaf.attribute = 'city' AND leaf.leaf_count = 1
    AND leaf.label = CAST(d."v1" AS VARCHAR)
  WHERE d."g1" = 0
),
"ranges1" AS (
  SELECT "s0", lo, hi, n
  FROM (
    SELECT "s0", lo, hi, SUM(n) AS n
    FROM (
      SELECT r."note" AS "s0", 
        CAST(node.first_leaf AS DOUBLE) AS lo,
        CAST(node.last_leaf AS DOUBLE) AS hi,
r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      JOIN "anon_private"."people__hierarchy_nodes" AS node
        ON node.attribute = 'city' AND node.leaf_count > 1
        AND node.label = CAST(r."city" AS VARCHAR)
    ) AS published
    GROUP BY "s0", lo, hi
  ) AS distinct_ranges
  WHERE lo < hi
),
"pairs2" AS (
  SELECT DISTINCT "s0", CAST(d."v2" AS DOUBLE) AS pos
  FROM source_values AS d
  WHERE d."g2" = 0
),
"ranges2" AS (
  SELECT "s0", lo, hi, n
  FROM (
    SELECT "s0", lo, hi, SUM(n) AS n
    FROM (
      SELECT r."note" AS "s0", 
        CAST(SPLIT_PART(SUBSTRING(CAST(r."income" AS VARCHAR), 2, LENGTH(CAST(r."income" AS VARCHAR)) - 2), ', ', 1) AS DOUBLE) AS lo,
        CAST(SPLIT_PART(SUBSTRING(CAST(r."income" AS VARCHAR), 2, LENGTH(CAST(r."income" AS VARCHAR)) - 2), ', ', 2) AS DOUBLE) AS hi,
r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE CAST(r."income" AS VARCHAR) LIKE '[%'
    ) AS published
    GROUP BY "s0", lo, hi
  ) AS distinct_ranges
  WHERE lo < hi
),
events AS (
  SELECT 0 AS q, "s0", pos, 1 AS kind, CAST(NULL AS DOUBLE) AS rlo, CAST(NULL AS DOUBLE) AS rhi, CAST(0 AS BIGINT) AS n
  FROM "pairs0"
  UNION ALL
  SELECT 0 AS q, "s0", lo AS pos, 0 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT 0 AS q, "s0", hi AS pos, 2 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT 1 AS q, "s0", pos, 1 AS kind, CAST(NULL AS DOUBLE) AS rlo, CAST(NULL AS DOUBLE) AS rhi, CAST(0 AS BIGINT) AS n
  FROM "pairs1"
  UNION ALL
  SELECT 1 AS q, "s0", lo AS pos, 0 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT 1 AS q, "s0", hi AS pos, 2 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT 2 AS q, "s0", pos, 1 AS kind, CAST(NULL AS DOUBLE) AS rlo, CAST(NULL AS DOUBLE) AS rhi, CAST(0 AS BIGINT) AS n
  FROM "pairs2"
  UNION ALL
  SELECT 2 AS q, "s0", lo AS pos, 0 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges2"
  UNION ALL
  SELECT 2 AS q, "s0", hi AS pos, 2 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges2"
),
counted AS (
  SELECT q, "s0", kind, rlo, rhi, n,
    SUM(CASE WHEN kind = 1 THEN 1 ELSE 0 END) OVER (
      PARTITION BY q, "s0"
      ORDER BY pos, kind
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS seen
  FROM events
),
candidates AS (
  SELECT q, MAX(n) AS n,
    MAX(CASE WHEN kind = 2 THEN seen END) - MAX(CASE WHEN kind = 0 THEN seen END) AS found
  FROM counted
  WHERE kind <> 1
  GROUP BY q, "s0", rlo, rhi
)
SELECT q, CAST(SUM(CASE WHEN found = 1 THEN n ELSE 0 END) AS BIGINT) AS recovered
FROM candidates
GROUP BY q;
SELECT COALESCE(SUM(rows_in), 0) AS small_rows
FROM (
  SELECT
    SUM(r."__anonsql_rows") AS rows_in, SUM(r."__anonsql_rows") AS individuals
  FROM "anon_private"."people__version_groups" AS r
  GROUP BY r."age", r."city", r."income", r."note"
) AS classes
WHERE individuals < 5;
WITH
source_values AS MATERIALIZED (
  SELECT s."disease" AS "s0", s."note" AS "s1", s."age" AS "v0", GROUPING(s."age") AS "g0", s."city" AS "v1", GROUPING(s."city") AS "g1", s."income" AS "v2", GROUPING(s."income") AS "g2"
  FROM "anon_private"."people__source" AS s
  GROUP BY GROUPING SETS ((s."disease", s."note", s."age"), (s."disease", s."note", s."city"), (s."disease", s."note", s."income"))
),
"pairs0" AS (
  SELECT DISTINCT "s0", "s1", CAST(d."v0" AS DOUBLE) AS pos
  FROM source_values AS d
  WHERE d."g0" = 0
),
"ranges0" AS (
  SELECT "s0", "s1", lo, hi, n
  FROM (
    SELECT "s0", "s1", lo, hi, SUM(n) AS n
    FROM (
      SELECT r."disease" AS "s0", r."note" AS "s1", 
        CAST(SPLIT_PART(SUBSTRING(CAST(r."age" AS VARCHAR), 2, LENGTH(CAST(r."age" AS VARCHAR)) - 2), ', ', 1) AS DOUBLE) AS lo,
        CAST(SPLIT_PART(SUBSTRING(CAST(r."age" AS VARCHAR), 2, LENGTH(CAST(r."age" AS VARCHAR)) - 2), ', ', 2) AS DOUBLE) AS hi,
r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE CAST(r."age" AS VARCHAR) LIKE '[%'
    ) AS published
    GROUP BY "s0", "s1", lo, hi
  ) AS distinct_ranges
  WHERE lo < hi
),
"pairs1" AS (
  SELECT DISTINCT "s0", "s1", CAST(leaf.first_leaf AS DOUBLE) AS pos
  FROM source_values AS d
  JOIN "anon_private"."people__hierarchy_nodes" AS leaf
    ON leaf.attribute = 'city' AND leaf.leaf_count = 1
    AND leaf.label = CAST(d."v1" AS VARCHAR)
  WHERE d."g1" = 0
),
"ranges1" AS (
  SELECT "s0", "s1", lo, hi, n
  FROM (
    SELECT "s0", "s1", lo, hi, SUM(n) AS n
    FROM (
      SELECT r."disease" AS "s0", r."note" AS "s1", 
        CAST(node.first_leaf AS DOUBLE) AS lo,
        CAST(node.last_leaf AS DOUBLE) AS hi,
r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      JOIN "anon_private"."people__hierarchy_nodes" AS node
        ON node.attribute = 'city' AND node.leaf_count > 1
        AND node.label = CAST(r."city" AS VARCHAR)
    ) AS published
    GROUP BY "s0", "s1", lo, hi
  ) AS distinct_ranges
  WHERE lo < hi
),
"pairs2" AS (
  SELECT DISTINCT "s0", "s1", CAST(d."v2" AS DOUBLE) AS pos
  FROM source_values AS d
  WHERE d."g2" = 0
),
"ranges2" AS (
  SELECT "s0", "s1", lo, hi, n
  FROM (
    SELECT "s0", "s1", lo, hi, SUM(n) AS n
    FROM (
      SELECT r."disease" AS "s0", r."note" AS "s1", 
        CAST(SPLIT_PART(SUBSTRING(CAST(r."income" AS VARCHAR), 2, LENGTH(CAST(r."income" AS VARCHAR)) - 2), ', ', 1) AS DOUBLE) AS lo,
        CAST(SPLIT_PART(SUBSTRING(CAST(r."income" AS VARCHAR), 2, LENGTH(CAST(r."income" AS VARCHAR)) - 2), ', ', 2) AS DOUBLE) AS hi,
r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE CAST(r."income" AS VARCHAR) LIKE '[%'
    ) AS published
    GROUP BY "s0", "s1", lo, hi
  ) AS distinct_ranges
  WHERE lo < hi
),
events AS (
  SELECT 0 AS q, "s0", "s1", pos, 1 AS kind, CAST(NULL AS DOUBLE) AS rlo, CAST(NULL AS DOUBLE) AS rhi, CAST(0 AS BIGINT) AS n
  FROM "pairs0"
  UNION ALL
  SELECT 0 AS q, "s0", "s1", lo AS pos, 0 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT 0 AS q, "s0", "s1", hi AS pos, 2 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT 1 AS q, "s0", "s1", pos, 1 AS kind, CAST(NULL AS DOUBLE) AS rlo, CAST(NULL AS DOUBLE) AS rhi, CAST(0 AS BIGINT) AS n
  FROM "pairs1"
  UNION ALL
  SELECT 1 AS q, "s0", "s1", lo AS pos, 0 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT 1 AS q, "s0", "s1", hi AS pos, 2 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT 2 AS q, "s0", "s1", pos, 1 AS kind, CAST(NULL AS DOUBLE) AS rlo, CAST(NULL AS DOUBLE) AS rhi, CAST(0 AS BIGINT) AS n
  FROM "pairs2"
  UNION ALL
  SELECT 2 AS q, "s0", "s1", lo AS pos, 0 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges2"
  UNION ALL
  SELECT 2 AS q, "s0", "s1", hi AS pos, 2 AS kind, lo AS rlo, hi AS rhi, CAST(n AS BIGINT) AS n
  FROM "ranges2"
),
counted AS (
  SELECT q, "s0", "s1", kind, rlo, rhi, n,
    SUM(CASE WHEN kind = 1 THEN 1 ELSE 0 END) OVER (
      PARTITION BY q, "s0", "s1"
      ORDER BY pos, kind
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS seen
  FROM events
),
candidates AS (
  SELECT q, MAX(n) AS n,
    MAX(CASE WHEN kind = 2 THEN seen END) - MAX(CASE WHEN kind = 0 THEN seen END) AS found
  FROM counted
  WHERE kind <> 1
  GROUP BY q, "s0", "s1", rlo, rhi
)
SELECT q, CAST(SUM(CASE WHEN found = 1 THEN n ELSE 0 END) AS BIGINT) AS recovered
FROM candidates
GROUP BY q;
SELECT COALESCE(SUM(rows_in), 0) AS small_rows
FROM (
  SELECT
    SUM(r."__anonsql_rows") AS rows_in, SUM(r."__anonsql_rows") AS individuals
  FROM "anon_private"."people__version_groups" AS r
  GROUP BY r."age", r."city", r."income", r."note"
) AS classes
WHERE individuals < 5;
CREATE TABLE "anon"."people__certificate" AS SELECT * FROM "__anonsql_arrow_N";
COMMIT;
DROP VIEW IF EXISTS "temp"."anonsql_work_RUN__v_batch";
DETACH DATABASE IF EXISTS "anonsql_work_RUN";
