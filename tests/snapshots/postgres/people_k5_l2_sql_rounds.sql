SET "enable_mergejoin" = 'off';

SET "enable_nestloop" = 'off';

SET "work_mem" = '256MB';

SET "jit" = 'off';

SET "parallel_tuple_cost" = '0';

SET "default_statistics_target" = '10';

SELECT
  column_name,
  data_type
FROM information_schema.columns
WHERE
  table_schema = 'main' AND table_name = 'people'
ORDER BY
  ordinal_position;

SELECT
  COUNT(*) AS "rows",
  COUNT(*) - COUNT("age") AS "nulls0",
  CAST(MIN("age") AS DOUBLE PRECISION) AS "min0",
  CAST(MAX("age") AS DOUBLE PRECISION) AS "max0",
  COUNT(*) - COUNT("city") AS "nulls1",
  COUNT(*) - COUNT("income") AS "nulls2",
  CAST(MIN("income") AS DOUBLE PRECISION) AS "min2",
  CAST(MAX("income") AS DOUBLE PRECISION) AS "max2",
  COUNT(DISTINCT "disease") + MAX(CASE WHEN "disease" IS NULL THEN 1 ELSE 0 END) AS "distinct0"
FROM "main"."people" AS src;

SELECT
  "c0".n AS "rows0",
  "c0".d AS "distinct0"
FROM (
  SELECT
    SUM(p.n) AS n,
    SUM(p.d) AS d
  FROM (
    SELECT
      COUNT(src."name") AS n,
      COUNT(DISTINCT src."name") AS d
    FROM "main"."people" AS src
    WHERE
      (
        HASHTEXTEXTENDED(CAST(src."name" AS TEXT), 0) & 1
      ) = 0
    UNION ALL
    SELECT
      COUNT(src."name") AS n,
      COUNT(DISTINCT src."name") AS d
    FROM "main"."people" AS src
    WHERE
      (
        HASHTEXTEXTENDED(CAST(src."name" AS TEXT), 0) & 1
      ) = 1
  ) AS p
) AS "c0";

WITH determines AS (
  SELECT
    "disease" AS p,
    MIN("age") AS "lo0",
    MAX("age") AS "hi0",
    MIN("city") AS "lo1",
    MAX("city") AS "hi1",
    MIN("income") AS "lo2",
    MAX("income") AS "hi2"
  FROM (
    SELECT
      *
    FROM "main"."people" AS l
    LIMIT 100000
  ) AS s
  GROUP BY
    "disease"
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
  SELECT
    "note" AS p,
    MIN("age") AS "lo0",
    MAX("age") AS "hi0",
    MIN("city") AS "lo1",
    MAX("city") AS "hi1",
    MIN("income") AS "lo2",
    MAX("income") AS "hi2"
  FROM (
    SELECT
      *
    FROM "main"."people" AS l
    LIMIT 100000
  ) AS s
  GROUP BY
    "note"
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

SELECT
  schema_name
FROM information_schema.schemata
WHERE
  STARTS_WITH(schema_name, 'anonsql_work_')
ORDER BY
  schema_name;

SELECT
  PG_ADVISORY_LOCK(RUN);

CREATE SCHEMA IF NOT EXISTS "anonsql_work_RUN";

SELECT
  table_schema,
  table_name,
  table_type
FROM information_schema.tables
WHERE
  (
    table_schema = 'anon_private' AND table_name IN ('people__versions')
  );

SELECT
  table_schema,
  table_name,
  table_type
FROM information_schema.tables
WHERE
  (
    table_schema = 'anon_private'
    AND table_name IN ('people__left_rows', 'people__history', 'people__labels')
  );

CREATE VIEW "anonsql_work_RUN"."v_batch" AS
SELECT
  s.*,
  HASHTEXTEXTENDED(
    CAST(ROW(s."name", s."age", s."city", s."income", s."disease", s."note") AS TEXT),
    0
  ) AS "__anonsql_row_hash",
  CAST(1 AS BIGINT) AS "__anonsql_row_ord"
FROM "main"."people" AS s;

SELECT
  COUNT(*)
FROM information_schema.schemata
WHERE
  schema_name = 'anonsql_work_RUN';

CREATE TABLE "anonsql_work_RUN"."leaves1" (
  "value" TEXT,
  "leaf_rank" INT
);

COPY "anonsql_work_RUN"."leaves1" (
  "value",
  "leaf_rank"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."leaves1";

CREATE TABLE "anonsql_work_RUN"."nodes1" (
  "node_id" INT,
  "label" TEXT,
  "depth" INT,
  "parent_id" INT,
  "first_leaf" INT,
  "last_leaf" INT,
  "leaf_count" INT,
  "ncp" DOUBLE PRECISION
);

COPY "anonsql_work_RUN"."nodes1" (
  "node_id",
  "label",
  "depth",
  "parent_id",
  "first_leaf",
  "last_leaf",
  "leaf_count",
  "ncp"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."nodes1";

CREATE TABLE "anonsql_work_RUN"."ancestors" (
  "dim" INT,
  "leaf_rank" INT,
  "depth" INT,
  "node_id" INT,
  "ordinal" INT
);

COPY "anonsql_work_RUN"."ancestors" (
  "dim",
  "leaf_rank",
  "depth",
  "node_id",
  "ordinal"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."ancestors";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."rows" AS
WITH "ranks0" AS (
  SELECT
    d.value,
    CAST(DENSE_RANK() OVER (ORDER BY d.value ASC) - 1 AS INT) AS code
  FROM (
    SELECT DISTINCT
      "disease" AS value
    FROM "anonsql_work_RUN"."v_batch"
  ) AS d
)
SELECT
  CAST(0 AS BIGINT) AS pid,
  src."age" AS "q0",
  "l1".leaf_rank AS "q1",
  src."income" AS "q2",
  COALESCE("r0".code, (
    SELECT
      MAX(code)
    FROM "ranks0"
  )) AS "s0"
FROM "anonsql_work_RUN"."v_batch" AS src
JOIN "anonsql_work_RUN"."leaves1" AS "l1"
  ON "l1".value = CAST(src."city" AS TEXT)
LEFT JOIN "ranks0" AS "r0"
  ON "r0".value = src."disease";

SELECT
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS r;

SELECT
  "s0" AS code,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows"
GROUP BY
  "s0"
ORDER BY
  code;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."done" AS
SELECT
  *
FROM "anonsql_work_RUN"."rows"
WHERE
  FALSE;

SELECT
  MIN(pid),
  COUNT(*)
FROM "anonsql_work_RUN"."rows";

SELECT
  w.pid AS pid,
  COUNT(*) AS n,
  MIN(w."q0") AS "min0",
  MAX(w."q0") AS "max0",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q0") AS "med0",
  MIN(w."q1") AS "min1",
  MAX(w."q1") AS "max1",
  MIN(w."q2") AS "min2",
  MAX(w."q2") AS "max2",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 0 AND w.pid < 20000
GROUP BY
  w.pid
ORDER BY
  w.pid;

DROP TABLE IF EXISTS "anonsql_work_RUN"."pstate";

CREATE TABLE "anonsql_work_RUN"."pstate" (
  "pid" BIGINT,
  "t0" BOOLEAN,
  "p0" BIGINT,
  "t1" BOOLEAN,
  "p1" INT,
  "t2" BOOLEAN,
  "p2" BIGINT
);

COPY "anonsql_work_RUN"."pstate" (
  "pid",
  "t0",
  "p0",
  "t1",
  "p1",
  "t2",
  "p2"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."pstate";

SELECT
  w.pid AS pid,
  0 AS dim,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t0"
GROUP BY
  w.pid,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
  a.node_id AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE
  p."t1"
GROUP BY
  w.pid,
  a.node_id
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t2"
GROUP BY
  w.pid,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END;

SELECT
  w.pid AS pid,
  0 AS dim,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t0"
GROUP BY
  w.pid,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END,
  w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
  a.node_id AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE
  p."t1"
GROUP BY
  w.pid,
  a.node_id,
  w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t2"
GROUP BY
  w.pid,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END,
  w."s0";

DROP TABLE IF EXISTS "anonsql_work_RUN"."split";

CREATE TABLE "anonsql_work_RUN"."split" (
  "pid" BIGINT,
  "dim" INT,
  "depth" INT
);

COPY "anonsql_work_RUN"."split" (
  "pid",
  "dim",
  "depth"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."split";

DROP TABLE IF EXISTS "anonsql_work_RUN"."decisions";

CREATE TABLE "anonsql_work_RUN"."decisions" (
  "pid" BIGINT,
  "bin" BIGINT,
  "new_pid" BIGINT
);

COPY "anonsql_work_RUN"."decisions" (
  "pid",
  "bin",
  "new_pid"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."decisions";

INSERT INTO "anonsql_work_RUN"."done"
SELECT
  w.*
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 0
  AND w.pid < 20000
  AND NOT EXISTS(
    SELECT
      1
    FROM "anonsql_work_RUN"."split" AS s
    WHERE
      s.pid = w.pid
  );

CREATE UNLOGGED TABLE "anonsql_work_RUN"."rows_next" AS
SELECT
  d.new_pid AS pid,
  w."q0",
  w."q1",
  w."q2",
  w."s0"
FROM (
  SELECT
    w.*,
    s.dim AS split_dim,
    s.depth AS split_depth,
    CASE s.dim WHEN 1 THEN w."q1" END AS split_leaf
  FROM "anonsql_work_RUN"."rows" AS w
  JOIN "anonsql_work_RUN"."split" AS s
    ON s.pid = w.pid
) AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
LEFT JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
JOIN "anonsql_work_RUN"."decisions" AS d
  ON d.pid = w.pid
  AND d.bin = CASE w.split_dim
    WHEN 0
    THEN CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
    WHEN 2
    THEN CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END
    ELSE a.node_id
  END
UNION ALL
SELECT
  w.pid,
  w."q0",
  w."q1",
  w."q2",
  w."s0"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  NOT (
    w.pid >= 0 AND w.pid < 20000
  );

DROP TABLE "anonsql_work_RUN"."rows";

ALTER TABLE "anonsql_work_RUN"."rows_next"
RENAME TO "rows";

ANALYZE "anonsql_work_RUN"."rows";

SELECT
  MIN(pid),
  COUNT(*)
FROM "anonsql_work_RUN"."rows";

SELECT
  w.pid AS pid,
  COUNT(*) AS n,
  MIN(w."q0") AS "min0",
  MAX(w."q0") AS "max0",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q0") AS "med0",
  MIN(w."q1") AS "min1",
  MAX(w."q1") AS "max1",
  MIN(w."q2") AS "min2",
  MAX(w."q2") AS "max2",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 1 AND w.pid < 20001
GROUP BY
  w.pid
ORDER BY
  w.pid;

DROP TABLE IF EXISTS "anonsql_work_RUN"."pstate";

CREATE TABLE "anonsql_work_RUN"."pstate" (
  "pid" BIGINT,
  "t0" BOOLEAN,
  "p0" BIGINT,
  "t1" BOOLEAN,
  "p1" INT,
  "t2" BOOLEAN,
  "p2" BIGINT
);

COPY "anonsql_work_RUN"."pstate" (
  "pid",
  "t0",
  "p0",
  "t1",
  "p1",
  "t2",
  "p2"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."pstate";

SELECT
  w.pid AS pid,
  0 AS dim,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t0"
GROUP BY
  w.pid,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
  a.node_id AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE
  p."t1"
GROUP BY
  w.pid,
  a.node_id
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t2"
GROUP BY
  w.pid,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END;

SELECT
  w.pid AS pid,
  0 AS dim,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t0"
GROUP BY
  w.pid,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END,
  w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
  a.node_id AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE
  p."t1"
GROUP BY
  w.pid,
  a.node_id,
  w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t2"
GROUP BY
  w.pid,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END,
  w."s0";

DROP TABLE IF EXISTS "anonsql_work_RUN"."split";

CREATE TABLE "anonsql_work_RUN"."split" (
  "pid" BIGINT,
  "dim" INT,
  "depth" INT
);

COPY "anonsql_work_RUN"."split" (
  "pid",
  "dim",
  "depth"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."split";

DROP TABLE IF EXISTS "anonsql_work_RUN"."decisions";

CREATE TABLE "anonsql_work_RUN"."decisions" (
  "pid" BIGINT,
  "bin" BIGINT,
  "new_pid" BIGINT
);

COPY "anonsql_work_RUN"."decisions" (
  "pid",
  "bin",
  "new_pid"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."decisions";

INSERT INTO "anonsql_work_RUN"."done"
SELECT
  w.*
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 1
  AND w.pid < 20001
  AND NOT EXISTS(
    SELECT
      1
    FROM "anonsql_work_RUN"."split" AS s
    WHERE
      s.pid = w.pid
  );

CREATE UNLOGGED TABLE "anonsql_work_RUN"."rows_next" AS
SELECT
  d.new_pid AS pid,
  w."q0",
  w."q1",
  w."q2",
  w."s0"
FROM (
  SELECT
    w.*,
    s.dim AS split_dim,
    s.depth AS split_depth,
    CASE s.dim WHEN 1 THEN w."q1" END AS split_leaf
  FROM "anonsql_work_RUN"."rows" AS w
  JOIN "anonsql_work_RUN"."split" AS s
    ON s.pid = w.pid
) AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
LEFT JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
JOIN "anonsql_work_RUN"."decisions" AS d
  ON d.pid = w.pid
  AND d.bin = CASE w.split_dim
    WHEN 0
    THEN CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
    WHEN 2
    THEN CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END
    ELSE a.node_id
  END
UNION ALL
SELECT
  w.pid,
  w."q0",
  w."q1",
  w."q2",
  w."s0"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  NOT (
    w.pid >= 1 AND w.pid < 20001
  );

DROP TABLE "anonsql_work_RUN"."rows";

ALTER TABLE "anonsql_work_RUN"."rows_next"
RENAME TO "rows";

ANALYZE "anonsql_work_RUN"."rows";

SELECT
  MIN(pid),
  COUNT(*)
FROM "anonsql_work_RUN"."rows";

SELECT
  w.pid AS pid,
  COUNT(*) AS n,
  MIN(w."q0") AS "min0",
  MAX(w."q0") AS "max0",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q0") AS "med0",
  MIN(w."q1") AS "min1",
  MAX(w."q1") AS "max1",
  MIN(w."q2") AS "min2",
  MAX(w."q2") AS "max2",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 3 AND w.pid < 20003
GROUP BY
  w.pid
ORDER BY
  w.pid;

DROP TABLE IF EXISTS "anonsql_work_RUN"."pstate";

CREATE TABLE "anonsql_work_RUN"."pstate" (
  "pid" BIGINT,
  "t0" BOOLEAN,
  "p0" BIGINT,
  "t1" BOOLEAN,
  "p1" INT,
  "t2" BOOLEAN,
  "p2" BIGINT
);

COPY "anonsql_work_RUN"."pstate" (
  "pid",
  "t0",
  "p0",
  "t1",
  "p1",
  "t2",
  "p2"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."pstate";

SELECT
  w.pid AS pid,
  0 AS dim,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t0"
GROUP BY
  w.pid,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
  a.node_id AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE
  p."t1"
GROUP BY
  w.pid,
  a.node_id
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t2"
GROUP BY
  w.pid,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END;

SELECT
  w.pid AS pid,
  0 AS dim,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t0"
GROUP BY
  w.pid,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END,
  w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
  a.node_id AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE
  p."t1"
GROUP BY
  w.pid,
  a.node_id,
  w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t2"
GROUP BY
  w.pid,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END,
  w."s0";

DROP TABLE IF EXISTS "anonsql_work_RUN"."split";

CREATE TABLE "anonsql_work_RUN"."split" (
  "pid" BIGINT,
  "dim" INT,
  "depth" INT
);

COPY "anonsql_work_RUN"."split" (
  "pid",
  "dim",
  "depth"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."split";

DROP TABLE IF EXISTS "anonsql_work_RUN"."decisions";

CREATE TABLE "anonsql_work_RUN"."decisions" (
  "pid" BIGINT,
  "bin" BIGINT,
  "new_pid" BIGINT
);

COPY "anonsql_work_RUN"."decisions" (
  "pid",
  "bin",
  "new_pid"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."decisions";

INSERT INTO "anonsql_work_RUN"."done"
SELECT
  w.*
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 3
  AND w.pid < 20003
  AND NOT EXISTS(
    SELECT
      1
    FROM "anonsql_work_RUN"."split" AS s
    WHERE
      s.pid = w.pid
  );

CREATE UNLOGGED TABLE "anonsql_work_RUN"."rows_next" AS
SELECT
  d.new_pid AS pid,
  w."q0",
  w."q1",
  w."q2",
  w."s0"
FROM (
  SELECT
    w.*,
    s.dim AS split_dim,
    s.depth AS split_depth,
    CASE s.dim WHEN 1 THEN w."q1" END AS split_leaf
  FROM "anonsql_work_RUN"."rows" AS w
  JOIN "anonsql_work_RUN"."split" AS s
    ON s.pid = w.pid
) AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
LEFT JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
JOIN "anonsql_work_RUN"."decisions" AS d
  ON d.pid = w.pid
  AND d.bin = CASE w.split_dim
    WHEN 0
    THEN CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
    WHEN 2
    THEN CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END
    ELSE a.node_id
  END
UNION ALL
SELECT
  w.pid,
  w."q0",
  w."q1",
  w."q2",
  w."s0"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  NOT (
    w.pid >= 3 AND w.pid < 20003
  );

DROP TABLE "anonsql_work_RUN"."rows";

ALTER TABLE "anonsql_work_RUN"."rows_next"
RENAME TO "rows";

ANALYZE "anonsql_work_RUN"."rows";

SELECT
  MIN(pid),
  COUNT(*)
FROM "anonsql_work_RUN"."rows";

SELECT
  w.pid AS pid,
  COUNT(*) AS n,
  MIN(w."q0") AS "min0",
  MAX(w."q0") AS "max0",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q0") AS "med0",
  MIN(w."q1") AS "min1",
  MAX(w."q1") AS "max1",
  MIN(w."q2") AS "min2",
  MAX(w."q2") AS "max2",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 7 AND w.pid < 20007
GROUP BY
  w.pid
ORDER BY
  w.pid;

DROP TABLE IF EXISTS "anonsql_work_RUN"."pstate";

CREATE TABLE "anonsql_work_RUN"."pstate" (
  "pid" BIGINT,
  "t0" BOOLEAN,
  "p0" BIGINT,
  "t1" BOOLEAN,
  "p1" INT,
  "t2" BOOLEAN,
  "p2" BIGINT
);

COPY "anonsql_work_RUN"."pstate" (
  "pid",
  "t0",
  "p0",
  "t1",
  "p1",
  "t2",
  "p2"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."pstate";

SELECT
  w.pid AS pid,
  0 AS dim,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t0"
GROUP BY
  w.pid,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
  a.node_id AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE
  p."t1"
GROUP BY
  w.pid,
  a.node_id
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t2"
GROUP BY
  w.pid,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END;

SELECT
  w.pid AS pid,
  0 AS dim,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t0"
GROUP BY
  w.pid,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END,
  w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
  a.node_id AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE
  p."t1"
GROUP BY
  w.pid,
  a.node_id,
  w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t2"
GROUP BY
  w.pid,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END,
  w."s0";

DROP TABLE IF EXISTS "anonsql_work_RUN"."split";

CREATE TABLE "anonsql_work_RUN"."split" (
  "pid" BIGINT,
  "dim" INT,
  "depth" INT
);

COPY "anonsql_work_RUN"."split" (
  "pid",
  "dim",
  "depth"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."split";

DROP TABLE IF EXISTS "anonsql_work_RUN"."decisions";

CREATE TABLE "anonsql_work_RUN"."decisions" (
  "pid" BIGINT,
  "bin" BIGINT,
  "new_pid" BIGINT
);

COPY "anonsql_work_RUN"."decisions" (
  "pid",
  "bin",
  "new_pid"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."decisions";

INSERT INTO "anonsql_work_RUN"."done"
SELECT
  w.*
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 7
  AND w.pid < 20007
  AND NOT EXISTS(
    SELECT
      1
    FROM "anonsql_work_RUN"."split" AS s
    WHERE
      s.pid = w.pid
  );

CREATE UNLOGGED TABLE "anonsql_work_RUN"."rows_next" AS
SELECT
  d.new_pid AS pid,
  w."q0",
  w."q1",
  w."q2",
  w."s0"
FROM (
  SELECT
    w.*,
    s.dim AS split_dim,
    s.depth AS split_depth,
    CASE s.dim WHEN 1 THEN w."q1" END AS split_leaf
  FROM "anonsql_work_RUN"."rows" AS w
  JOIN "anonsql_work_RUN"."split" AS s
    ON s.pid = w.pid
) AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
LEFT JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
JOIN "anonsql_work_RUN"."decisions" AS d
  ON d.pid = w.pid
  AND d.bin = CASE w.split_dim
    WHEN 0
    THEN CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
    WHEN 2
    THEN CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END
    ELSE a.node_id
  END
UNION ALL
SELECT
  w.pid,
  w."q0",
  w."q1",
  w."q2",
  w."s0"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  NOT (
    w.pid >= 7 AND w.pid < 20007
  );

DROP TABLE "anonsql_work_RUN"."rows";

ALTER TABLE "anonsql_work_RUN"."rows_next"
RENAME TO "rows";

ANALYZE "anonsql_work_RUN"."rows";

SELECT
  MIN(pid),
  COUNT(*)
FROM "anonsql_work_RUN"."rows";

SELECT
  w.pid AS pid,
  COUNT(*) AS n,
  MIN(w."q0") AS "min0",
  MAX(w."q0") AS "max0",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q0") AS "med0",
  MIN(w."q1") AS "min1",
  MAX(w."q1") AS "max1",
  MIN(w."q2") AS "min2",
  MAX(w."q2") AS "max2",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 15 AND w.pid < 20015
GROUP BY
  w.pid
ORDER BY
  w.pid;

DROP TABLE IF EXISTS "anonsql_work_RUN"."pstate";

CREATE TABLE "anonsql_work_RUN"."pstate" (
  "pid" BIGINT,
  "t0" BOOLEAN,
  "p0" BIGINT,
  "t1" BOOLEAN,
  "p1" INT,
  "t2" BOOLEAN,
  "p2" BIGINT
);

COPY "anonsql_work_RUN"."pstate" (
  "pid",
  "t0",
  "p0",
  "t1",
  "p1",
  "t2",
  "p2"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."pstate";

SELECT
  w.pid AS pid,
  0 AS dim,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t0"
GROUP BY
  w.pid,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
  a.node_id AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE
  p."t1"
GROUP BY
  w.pid,
  a.node_id
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t2"
GROUP BY
  w.pid,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END;

SELECT
  w.pid AS pid,
  0 AS dim,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t0"
GROUP BY
  w.pid,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END,
  w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
  a.node_id AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE
  p."t1"
GROUP BY
  w.pid,
  a.node_id,
  w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t2"
GROUP BY
  w.pid,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END,
  w."s0";

DROP TABLE IF EXISTS "anonsql_work_RUN"."split";

CREATE TABLE "anonsql_work_RUN"."split" (
  "pid" BIGINT,
  "dim" INT,
  "depth" INT
);

COPY "anonsql_work_RUN"."split" (
  "pid",
  "dim",
  "depth"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."split";

DROP TABLE IF EXISTS "anonsql_work_RUN"."decisions";

CREATE TABLE "anonsql_work_RUN"."decisions" (
  "pid" BIGINT,
  "bin" BIGINT,
  "new_pid" BIGINT
);

COPY "anonsql_work_RUN"."decisions" (
  "pid",
  "bin",
  "new_pid"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."decisions";

INSERT INTO "anonsql_work_RUN"."done"
SELECT
  w.*
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 15
  AND w.pid < 20015
  AND NOT EXISTS(
    SELECT
      1
    FROM "anonsql_work_RUN"."split" AS s
    WHERE
      s.pid = w.pid
  );

CREATE UNLOGGED TABLE "anonsql_work_RUN"."rows_next" AS
SELECT
  d.new_pid AS pid,
  w."q0",
  w."q1",
  w."q2",
  w."s0"
FROM (
  SELECT
    w.*,
    s.dim AS split_dim,
    s.depth AS split_depth,
    CASE s.dim WHEN 1 THEN w."q1" END AS split_leaf
  FROM "anonsql_work_RUN"."rows" AS w
  JOIN "anonsql_work_RUN"."split" AS s
    ON s.pid = w.pid
) AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
LEFT JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
JOIN "anonsql_work_RUN"."decisions" AS d
  ON d.pid = w.pid
  AND d.bin = CASE w.split_dim
    WHEN 0
    THEN CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
    WHEN 2
    THEN CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END
    ELSE a.node_id
  END
UNION ALL
SELECT
  w.pid,
  w."q0",
  w."q1",
  w."q2",
  w."s0"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  NOT (
    w.pid >= 15 AND w.pid < 20015
  );

DROP TABLE "anonsql_work_RUN"."rows";

ALTER TABLE "anonsql_work_RUN"."rows_next"
RENAME TO "rows";

ANALYZE "anonsql_work_RUN"."rows";

SELECT
  MIN(pid),
  COUNT(*)
FROM "anonsql_work_RUN"."rows";

SELECT
  w.pid AS pid,
  COUNT(*) AS n,
  MIN(w."q0") AS "min0",
  MAX(w."q0") AS "max0",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q0") AS "med0",
  MIN(w."q1") AS "min1",
  MAX(w."q1") AS "max1",
  MIN(w."q2") AS "min2",
  MAX(w."q2") AS "max2",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 31 AND w.pid < 20031
GROUP BY
  w.pid
ORDER BY
  w.pid;

DROP TABLE IF EXISTS "anonsql_work_RUN"."pstate";

CREATE TABLE "anonsql_work_RUN"."pstate" (
  "pid" BIGINT,
  "t0" BOOLEAN,
  "p0" BIGINT,
  "t1" BOOLEAN,
  "p1" INT,
  "t2" BOOLEAN,
  "p2" BIGINT
);

COPY "anonsql_work_RUN"."pstate" (
  "pid",
  "t0",
  "p0",
  "t1",
  "p1",
  "t2",
  "p2"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."pstate";

SELECT
  w.pid AS pid,
  0 AS dim,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t0"
GROUP BY
  w.pid,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
  a.node_id AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE
  p."t1"
GROUP BY
  w.pid,
  a.node_id
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t2"
GROUP BY
  w.pid,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END;

SELECT
  w.pid AS pid,
  0 AS dim,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t0"
GROUP BY
  w.pid,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END,
  w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
  a.node_id AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE
  p."t1"
GROUP BY
  w.pid,
  a.node_id,
  w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t2"
GROUP BY
  w.pid,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END,
  w."s0";

DROP TABLE IF EXISTS "anonsql_work_RUN"."split";

CREATE TABLE "anonsql_work_RUN"."split" (
  "pid" BIGINT,
  "dim" INT,
  "depth" INT
);

COPY "anonsql_work_RUN"."split" (
  "pid",
  "dim",
  "depth"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."split";

DROP TABLE IF EXISTS "anonsql_work_RUN"."decisions";

CREATE TABLE "anonsql_work_RUN"."decisions" (
  "pid" BIGINT,
  "bin" BIGINT,
  "new_pid" BIGINT
);

COPY "anonsql_work_RUN"."decisions" (
  "pid",
  "bin",
  "new_pid"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."decisions";

INSERT INTO "anonsql_work_RUN"."done"
SELECT
  w.*
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 31
  AND w.pid < 20031
  AND NOT EXISTS(
    SELECT
      1
    FROM "anonsql_work_RUN"."split" AS s
    WHERE
      s.pid = w.pid
  );

CREATE UNLOGGED TABLE "anonsql_work_RUN"."rows_next" AS
SELECT
  d.new_pid AS pid,
  w."q0",
  w."q1",
  w."q2",
  w."s0"
FROM (
  SELECT
    w.*,
    s.dim AS split_dim,
    s.depth AS split_depth,
    CASE s.dim WHEN 1 THEN w."q1" END AS split_leaf
  FROM "anonsql_work_RUN"."rows" AS w
  JOIN "anonsql_work_RUN"."split" AS s
    ON s.pid = w.pid
) AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
LEFT JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
JOIN "anonsql_work_RUN"."decisions" AS d
  ON d.pid = w.pid
  AND d.bin = CASE w.split_dim
    WHEN 0
    THEN CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
    WHEN 2
    THEN CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END
    ELSE a.node_id
  END
UNION ALL
SELECT
  w.pid,
  w."q0",
  w."q1",
  w."q2",
  w."s0"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  NOT (
    w.pid >= 31 AND w.pid < 20031
  );

DROP TABLE "anonsql_work_RUN"."rows";

ALTER TABLE "anonsql_work_RUN"."rows_next"
RENAME TO "rows";

ANALYZE "anonsql_work_RUN"."rows";

SELECT
  MIN(pid),
  COUNT(*)
FROM "anonsql_work_RUN"."rows";

SELECT
  w.pid AS pid,
  COUNT(*) AS n,
  MIN(w."q0") AS "min0",
  MAX(w."q0") AS "max0",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q0") AS "med0",
  MIN(w."q1") AS "min1",
  MAX(w."q1") AS "max1",
  MIN(w."q2") AS "min2",
  MAX(w."q2") AS "max2",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 66 AND w.pid < 20066
GROUP BY
  w.pid
ORDER BY
  w.pid;

DROP TABLE IF EXISTS "anonsql_work_RUN"."pstate";

CREATE TABLE "anonsql_work_RUN"."pstate" (
  "pid" BIGINT,
  "t0" BOOLEAN,
  "p0" BIGINT,
  "t1" BOOLEAN,
  "p1" INT,
  "t2" BOOLEAN,
  "p2" BIGINT
);

COPY "anonsql_work_RUN"."pstate" (
  "pid",
  "t0",
  "p0",
  "t1",
  "p1",
  "t2",
  "p2"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."pstate";

SELECT
  w.pid AS pid,
  0 AS dim,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t0"
GROUP BY
  w.pid,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
  a.node_id AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE
  p."t1"
GROUP BY
  w.pid,
  a.node_id
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  COUNT(*) AS n,
  MIN(w."q0") AS "lo0",
  MAX(w."q0") AS "hi0",
  MIN(w."q1") AS "lo1",
  MAX(w."q1") AS "hi1",
  MIN(w."q2") AS "lo2",
  MAX(w."q2") AS "hi2"
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t2"
GROUP BY
  w.pid,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END;

SELECT
  w.pid AS pid,
  0 AS dim,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t0"
GROUP BY
  w.pid,
  CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END,
  w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  1 AS dim,
  a.node_id AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 1 AND a.leaf_rank = w."q1" AND a.depth = p."p1" + 1
WHERE
  p."t1"
GROUP BY
  w.pid,
  a.node_id,
  w."s0"
UNION ALL
SELECT
  w.pid AS pid,
  2 AS dim,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
WHERE
  p."t2"
GROUP BY
  w.pid,
  CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END,
  w."s0";

DROP TABLE IF EXISTS "anonsql_work_RUN"."split";

CREATE TABLE "anonsql_work_RUN"."split" (
  "pid" BIGINT,
  "dim" INT,
  "depth" INT
);

COPY "anonsql_work_RUN"."split" (
  "pid",
  "dim",
  "depth"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."split";

DROP TABLE IF EXISTS "anonsql_work_RUN"."decisions";

CREATE TABLE "anonsql_work_RUN"."decisions" (
  "pid" BIGINT,
  "bin" BIGINT,
  "new_pid" BIGINT
);

COPY "anonsql_work_RUN"."decisions" (
  "pid",
  "bin",
  "new_pid"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."decisions";

INSERT INTO "anonsql_work_RUN"."done"
SELECT
  w.*
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 66
  AND w.pid < 20066
  AND NOT EXISTS(
    SELECT
      1
    FROM "anonsql_work_RUN"."split" AS s
    WHERE
      s.pid = w.pid
  );

CREATE UNLOGGED TABLE "anonsql_work_RUN"."rows_next" AS
SELECT
  d.new_pid AS pid,
  w."q0",
  w."q1",
  w."q2",
  w."s0"
FROM (
  SELECT
    w.*,
    s.dim AS split_dim,
    s.depth AS split_depth,
    CASE s.dim WHEN 1 THEN w."q1" END AS split_leaf
  FROM "anonsql_work_RUN"."rows" AS w
  JOIN "anonsql_work_RUN"."split" AS s
    ON s.pid = w.pid
) AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
LEFT JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
JOIN "anonsql_work_RUN"."decisions" AS d
  ON d.pid = w.pid
  AND d.bin = CASE w.split_dim
    WHEN 0
    THEN CASE WHEN w."q0" < p."p0" THEN -1 WHEN w."q0" = p."p0" THEN 0 ELSE 1 END
    WHEN 2
    THEN CASE WHEN w."q2" < p."p2" THEN -1 WHEN w."q2" = p."p2" THEN 0 ELSE 1 END
    ELSE a.node_id
  END
UNION ALL
SELECT
  w.pid,
  w."q0",
  w."q1",
  w."q2",
  w."s0"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  NOT (
    w.pid >= 66 AND w.pid < 20066
  );

DROP TABLE "anonsql_work_RUN"."rows";

ALTER TABLE "anonsql_work_RUN"."rows_next"
RENAME TO "rows";

ANALYZE "anonsql_work_RUN"."rows";

SELECT
  MIN(pid),
  COUNT(*)
FROM "anonsql_work_RUN"."rows";

SELECT
  w.pid AS pid,
  COUNT(*) AS n,
  MIN(w."q0") AS "min0",
  MAX(w."q0") AS "max0",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q0") AS "med0",
  MIN(w."q1") AS "min1",
  MAX(w."q1") AS "max1",
  MIN(w."q2") AS "min2",
  MAX(w."q2") AS "max2",
  PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY
    w."q2") AS "med2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 117 AND w.pid < 20117
GROUP BY
  w.pid
ORDER BY
  w.pid;

INSERT INTO "anonsql_work_RUN"."done"
SELECT
  *
FROM "anonsql_work_RUN"."rows"
WHERE
  pid >= 117 AND pid < 20117;

DELETE FROM "anonsql_work_RUN"."rows"
WHERE
  pid >= 117 AND pid < 20117;

SELECT
  MIN(pid),
  COUNT(*)
FROM "anonsql_work_RUN"."rows";

CREATE TABLE "anonsql_work_RUN"."parts" (
  "pid" BIGINT,
  "n" BIGINT,
  "suppressed" BOOLEAN,
  "lo0" BIGINT,
  "hi0" BIGINT,
  "node1" INT,
  "lo2" BIGINT,
  "hi2" BIGINT
);

COPY "anonsql_work_RUN"."parts" (
  "pid",
  "n",
  "suppressed",
  "lo0",
  "hi0",
  "node1",
  "lo2",
  "hi2"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."parts";

DROP TABLE IF EXISTS "anonsql_work_RUN"."rows";

ALTER TABLE "anonsql_work_RUN"."done"
RENAME TO "rows";

ANALYZE "anonsql_work_RUN"."rows";

ANALYZE "anonsql_work_RUN"."parts";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."generalized" AS
SELECT
  p.pid,
  p.suppressed,
  CASE
    WHEN p."lo0" = p."hi0"
    THEN CAST(p."lo0" AS TEXT)
    ELSE '[' || CAST(p."lo0" AS TEXT) || ', ' || CAST(p."hi0" AS TEXT) || ']'
  END AS "g0",
  "h1".label AS "g1",
  CASE
    WHEN p."lo2" = p."hi2"
    THEN CAST(p."lo2" AS TEXT)
    ELSE '[' || CAST(p."lo2" AS TEXT) || ', ' || CAST(p."hi2" AS TEXT) || ']'
  END AS "g2"
FROM "anonsql_work_RUN"."parts" AS p
JOIN "anonsql_work_RUN"."nodes1" AS "h1"
  ON "h1".node_id = p."node1";

CREATE TABLE "anonsql_work_RUN"."attributes" (
  "attribute" TEXT,
  "kind" TEXT,
  "min_value" DOUBLE PRECISION,
  "max_value" DOUBLE PRECISION,
  "leaf_count" BIGINT
);

COPY "anonsql_work_RUN"."attributes" (
  "attribute",
  "kind",
  "min_value",
  "max_value",
  "leaf_count"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."attributes";

CREATE TABLE "anonsql_work_RUN"."hierarchy_nodes" (
  "attribute" TEXT,
  "label" TEXT,
  "depth" INT,
  "leaf_count" BIGINT,
  "ncp" DOUBLE PRECISION,
  "first_leaf" INT,
  "last_leaf" INT
);

COPY "anonsql_work_RUN"."hierarchy_nodes" (
  "attribute",
  "label",
  "depth",
  "leaf_count",
  "ncp",
  "first_leaf",
  "last_leaf"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."hierarchy_nodes";

SELECT
  table_schema,
  table_name,
  table_type
FROM information_schema.tables
WHERE
  (
    table_schema = 'anon' AND table_name IN ('people')
  );

SELECT
  COUNT(*)
FROM information_schema.schemata
WHERE
  schema_name = 'anon';

CREATE SCHEMA IF NOT EXISTS "anon";

SELECT
  COUNT(*)
FROM information_schema.schemata
WHERE
  schema_name = 'anon_private';

CREATE SCHEMA IF NOT EXISTS "anon_private";

BEGIN;

SET LOCAL "enable_mergejoin" = 'off';

SET LOCAL "enable_nestloop" = 'off';

SET LOCAL "work_mem" = '256MB';

SET LOCAL "jit" = 'off';

SELECT
  table_schema,
  table_name,
  table_type
FROM information_schema.tables
WHERE
  (
    table_schema = 'anon'
    AND table_name IN (
      'people__by_person',
      'people',
      'people__classes',
      'people__certificate',
      'people__metrics',
      'people__fingerprints',
      'people__groups',
      'people__group_values',
      'people__buckets',
      'people__group_buckets',
      'people__sa_taxonomy',
      'people__recoding',
      'people__attributes',
      'people__hierarchy_nodes',
      'people__person_map',
      'people__item_map',
      'people__source',
      'people__released',
      'people__released_by_person',
      'people__population'
    )
  )
  OR (
    table_schema = 'anon_private'
    AND table_name IN (
      'people__released_by_person',
      'people__released',
      'people__source',
      'people__recoding',
      'people__attributes',
      'people__hierarchy_nodes',
      'people__person_map',
      'people__item_map',
      'people__population'
    )
  );

CREATE TABLE "anon_private"."people__attributes" AS
SELECT
  *
FROM "anonsql_work_RUN"."attributes";

ANALYZE "anon_private"."people__attributes";

CREATE TABLE "anon_private"."people__hierarchy_nodes" AS
SELECT
  *
FROM "anonsql_work_RUN"."hierarchy_nodes";

ANALYZE "anon_private"."people__hierarchy_nodes";

SELECT
  table_schema,
  table_name,
  table_type
FROM information_schema.tables
WHERE
  (
    table_schema = 'anon_private'
    AND table_name IN (
      'people__version_rows',
      'people__held',
      'people__left_rows',
      'people__versions',
      'people__version_groups',
      'people__labels',
      'people__history'
    )
  );

CREATE TABLE "anon_private"."people__recoding" AS
WITH coded AS MATERIALIZED (
  SELECT
    r.*,
    g."g0",
    g."g1",
    g."g2",
    g.suppressed
  FROM (
    SELECT DISTINCT
      "q0",
      "q1",
      "q2",
      pid
    FROM "anonsql_work_RUN"."rows"
  ) AS r
  JOIN "anonsql_work_RUN"."generalized" AS g
    ON g.pid = r.pid
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

ANALYZE "anon_private"."people__recoding";

CREATE VIEW "anon_private"."people__source" AS
SELECT
  *
FROM "main"."people" AS s;

SET "max_parallel_workers_per_gather" = 1;

CREATE TABLE "anon_private"."people__version_rows" AS
SELECT
  p."__anonsql_row_hash",
  p."__anonsql_row_ord",
  p.__anonsql_class_id,
  CAST(1 AS INT) AS __anonsql_since,
  p."age",
  p."city",
  p."income",
  p."disease",
  p."note"
FROM (
  SELECT
    b."__anonsql_row_hash",
    b."__anonsql_row_ord",
    CAST(m."__anonsql_pid" AS BIGINT) + 0 AS __anonsql_class_id,
    m."__anonsql_suppressed" AS __anonsql_suppressed,
    m."age__generalized" AS "age",
    m."city__generalized" AS "city",
    m."income__generalized" AS "income",
    b."disease" AS "disease",
    b."note" AS "note"
  FROM "anonsql_work_RUN"."v_batch" AS b
  JOIN "anon_private"."people__recoding" AS m
    ON m."age" = b."age"
    AND m."city" = CAST(b."city" AS TEXT)
    AND m."income" = b."income"
) AS p
WHERE
  NOT p.__anonsql_suppressed;

SET "max_parallel_workers_per_gather" = 2;

SELECT
  table_schema,
  table_name,
  table_type
FROM information_schema.tables
WHERE
  (
    table_schema = 'anon_private' AND table_name IN ('people__held')
  );

CREATE TABLE "anon_private"."people__held" AS
SELECT
  b."__anonsql_row_hash",
  b."__anonsql_row_ord"
FROM "anonsql_work_RUN"."v_batch" AS b
WHERE
  1 = 0;

CREATE VIEW "anonsql_work_RUN"."v_placed_keys" AS
SELECT
  r."__anonsql_row_hash",
  r."__anonsql_row_ord"
FROM "anon_private"."people__version_rows" AS r
UNION ALL
SELECT
  h."__anonsql_row_hash",
  h."__anonsql_row_ord"
FROM "anon_private"."people__held" AS h;

SELECT
  SUM(p.n) AS n,
  SUM(p.first_sum) AS first_sum,
  SUM(p.second_sum) AS second_sum,
  SUM(p.distinct_keys) AS distinct_keys
FROM (
  SELECT
    COUNT(*) AS n,
    COALESCE(SUM(k.h % 1000000007), 0) AS first_sum,
    COALESCE(SUM(k.h % 998244353), 0) AS second_sum,
    COUNT(DISTINCT k.h) AS distinct_keys
  FROM (
    SELECT
      r."__anonsql_row_hash" AS h
    FROM "anonsql_work_RUN"."v_placed_keys" AS r
  ) AS k
  WHERE
    (
      k.h & 1
    ) = 0
  UNION ALL
  SELECT
    COUNT(*) AS n,
    COALESCE(SUM(k.h % 1000000007), 0) AS first_sum,
    COALESCE(SUM(k.h % 998244353), 0) AS second_sum,
    COUNT(DISTINCT k.h) AS distinct_keys
  FROM (
    SELECT
      r."__anonsql_row_hash" AS h
    FROM "anonsql_work_RUN"."v_placed_keys" AS r
  ) AS k
  WHERE
    (
      k.h & 1
    ) <> 0 OR k.h IS NULL
) AS p;

DROP VIEW IF EXISTS "anonsql_work_RUN"."v_placed_keys";

CREATE TABLE "anon_private"."people__left_rows" AS
SELECT
  r.*,
  CAST(NULL AS INT) AS __anonsql_until
FROM "anon_private"."people__version_rows" AS r
WHERE
  1 = 0;

CREATE TABLE "anon_private"."people__versions" (
  version INT,
  created_at TEXT,
  published_rows BIGINT,
  inserted_rows BIGINT,
  deleted_rows BIGINT,
  held_rows BIGINT,
  pending_deletions BIGINT,
  source_checksum TEXT,
  spec_sha256 TEXT,
  run_id TEXT
);

ANALYZE "anon_private"."people__version_rows";

CREATE VIEW "anon_private"."people__released" AS
SELECT
  r."age" AS "age",
  r."city" AS "city",
  r."income" AS "income",
  r."disease" AS "disease",
  r."note" AS "note"
FROM "anon_private"."people__version_rows" AS r;

CREATE VIEW "anon"."people" AS
SELECT
  r."age" AS "age",
  r."city" AS "city",
  r."income" AS "income",
  r."disease" AS "disease",
  r."note" AS "note"
FROM "anon_private"."people__version_rows" AS r;

INSERT INTO "anon_private"."people__versions"
VALUES
  (1, 'TIME', 400, 400, 0, 0, 0, '400:-1921312704', 'SHA256', 'RUN');

SELECT
  table_schema,
  table_name,
  table_type
FROM information_schema.tables
WHERE
  (
    table_schema = 'anon_private' AND table_name IN ('people__version_groups')
  );

CREATE TABLE "anon_private"."people__version_groups" AS
SELECT
  g."age" AS "age",
  g."city" AS "city",
  g."income" AS "income",
  g."disease" AS "disease",
  g."note" AS "note",
  g."__anonsql_rows"
FROM (
  SELECT
    r."age",
    r."city",
    r."income",
    r."disease",
    r."note",
    CAST(COUNT(*) AS BIGINT) AS "__anonsql_rows"
  FROM "anon_private"."people__version_rows" AS r
  GROUP BY
    r."age",
    r."city",
    r."income",
    r."disease",
    r."note"
) AS g;

ANALYZE "anon_private"."people__version_groups";

CREATE TABLE "anon"."people__classes" AS
SELECT
  v."age",
  v."city",
  v."income",
  CAST(SUM(CASE WHEN v.__anonsql_g0 = 0 THEN v.__anonsql_n END) AS BIGINT) AS class_size,
  COUNT(CASE WHEN v."__anonsql_g0" = 0 AND NOT v."disease" IS NULL THEN 1 END) AS "distinct disease"
FROM (
  SELECT
    r."age",
    r."city",
    r."income",
    r."disease",
    GROUPING(r."disease") AS "__anonsql_g0",
    SUM(r."__anonsql_rows") AS __anonsql_n
  FROM "anon_private"."people__version_groups" AS r
  GROUP BY
    GROUPING SETS (
      (r."age", r."city", r."income", r."disease")
    )
) AS v
GROUP BY
  v."age",
  v."city",
  v."income";

SELECT
  COUNT(*)
FROM (
  SELECT
    "age",
    "city",
    "income",
    CAST(SUM("__anonsql_rows") AS BIGINT) AS class_size
  FROM "anon_private"."people__version_groups"
  GROUP BY
    "age",
    "city",
    "income"
  HAVING
    CAST(SUM("__anonsql_rows") AS BIGINT) < 5
) AS v;

SELECT
  COUNT(*)
FROM (
  WITH sa_rows AS (
    SELECT
      "age" AS "q0",
      "city" AS "q1",
      "income" AS "q2",
      "disease" AS sa,
      "__anonsql_rows" AS w
    FROM "anon_private"."people__version_groups"
  ), sa_frequencies AS (
    SELECT
      "q0",
      "q1",
      "q2",
      sa,
      CAST(SUM("w") AS BIGINT) AS n
    FROM sa_rows
    GROUP BY
      "q0",
      "q1",
      "q2",
      sa
  ), class_stats AS (
    SELECT
      "q0",
      "q1",
      "q2",
      CAST(SUM(n) AS BIGINT) AS class_size,
      COUNT(*) AS distinct_values
    FROM sa_frequencies
    GROUP BY
      "q0",
      "q1",
      "q2"
  )
  SELECT
    "q0" AS "age",
    "q1" AS "city",
    "q2" AS "income",
    class_size,
    distinct_values
  FROM class_stats
  WHERE
    distinct_values < 2
) AS v;

SELECT
  COALESCE(SUM(class_size), 0) AS n
FROM "anon"."people__classes" AS c;

SELECT
  COUNT(*)
FROM "anon_private"."people__version_rows" AS r;

SELECT
  column_name,
  data_type
FROM information_schema.columns
WHERE
  table_schema = 'anon_private' AND table_name = 'people__version_groups'
ORDER BY
  ordinal_position;

WITH cells AS (
  SELECT
    "age" AS "k0",
    "city" AS "k1",
    "income" AS "k2",
    "disease" AS "a0",
    CAST(SUM("__anonsql_rows") AS BIGINT) AS n
  FROM "anon_private"."people__version_groups" AS r
  GROUP BY
    "age",
    "city",
    "income",
    "disease"
), stats AS (
  SELECT
    GROUPING(a0) AS per_group,
    SUM(n) AS n,
    MAX(n) AS top
  FROM cells
  GROUP BY
    GROUPING SETS (
      ("k0", "k1", "k2"),
      (
        a0
      )
    )
)
SELECT
  CAST(COALESCE(SUM(CASE WHEN per_group = 1 THEN top END), 0) AS BIGINT) AS correct,
  CAST(COALESCE(SUM(CASE WHEN per_group = 1 THEN n END), 0) AS BIGINT) AS rows,
  COALESCE(
    MAX(
      CASE
        WHEN per_group = 1
        THEN CAST(top AS DOUBLE PRECISION) / CAST(n AS DOUBLE PRECISION)
      END
    ),
    0.0
  ) AS confidence,
  CAST(COALESCE(MAX(CASE WHEN per_group = 0 THEN n END), 0) AS BIGINT) AS baseline_correct,
  CAST(SUM(CASE WHEN per_group = 0 THEN 1 ELSE 0 END) AS BIGINT) AS domain
FROM stats;

WITH cells AS (
  SELECT
    "age" AS "k0",
    "city" AS "k1",
    "income" AS "k2",
    "note" AS "k3",
    "disease" AS "a0",
    CAST("__anonsql_rows" AS BIGINT) AS n
  FROM "anon_private"."people__version_groups" AS r
), stats AS (
  SELECT
    GROUPING(a0) AS per_group,
    SUM(n) AS n,
    MAX(n) AS top
  FROM cells
  GROUP BY
    GROUPING SETS (
      ("k0", "k1", "k2", "k3"),
      (
        a0
      )
    )
)
SELECT
  CAST(COALESCE(SUM(CASE WHEN per_group = 1 THEN top END), 0) AS BIGINT) AS correct,
  CAST(COALESCE(SUM(CASE WHEN per_group = 1 THEN n END), 0) AS BIGINT) AS rows,
  COALESCE(
    MAX(
      CASE
        WHEN per_group = 1
        THEN CAST(top AS DOUBLE PRECISION) / CAST(n AS DOUBLE PRECISION)
      END
    ),
    0.0
  ) AS confidence,
  CAST(COALESCE(MAX(CASE WHEN per_group = 0 THEN n END), 0) AS BIGINT) AS baseline_correct,
  CAST(SUM(CASE WHEN per_group = 0 THEN 1 ELSE 0 END) AS BIGINT) AS domain
FROM stats;

SELECT
  CAST(COUNT(*) AS BIGINT) AS groups,
  CAST(COALESCE(SUM(CASE WHEN g.n = 1 THEN 1 ELSE 0 END), 0) AS BIGINT) AS isolated,
  CAST(COALESCE(MIN(g.n), 0) AS BIGINT) AS smallest,
  CAST(COALESCE(SUM(g.n), 0) AS BIGINT) AS rows
FROM (
  SELECT
    "age" AS "k0",
    "city" AS "k1",
    "income" AS "k2",
    CAST(SUM("__anonsql_rows") AS BIGINT) AS n
  FROM "anon_private"."people__version_groups" AS r
  GROUP BY
    "age",
    "city",
    "income"
) AS g;

SELECT
  CAST(COUNT(*) AS BIGINT) AS groups,
  CAST(COALESCE(SUM(CASE WHEN g.n = 1 THEN 1 ELSE 0 END), 0) AS BIGINT) AS isolated,
  CAST(COALESCE(MIN(g.n), 0) AS BIGINT) AS smallest,
  CAST(COALESCE(SUM(g.n), 0) AS BIGINT) AS rows
FROM (
  SELECT
    "age" AS "k0",
    "city" AS "k1",
    "income" AS "k2",
    "note" AS "k3",
    CAST(SUM("__anonsql_rows") AS BIGINT) AS n
  FROM "anon_private"."people__version_groups" AS r
  GROUP BY
    "age",
    "city",
    "income",
    "note"
) AS g;

WITH source_values AS MATERIALIZED (
  SELECT
    s."disease" AS "s0",
    s."age" AS "v0",
    GROUPING(s."age") AS "g0",
    s."city" AS "v1",
    GROUPING(s."city") AS "g1",
    s."income" AS "v2",
    GROUPING(s."income") AS "g2"
  FROM (
    SELECT
      r."disease",
      r."age",
      r."city",
      r."income"
    FROM "anon_private"."people__source" AS r
    GROUP BY
      r."disease",
      r."age",
      r."city",
      r."income"
  ) AS s
  GROUP BY
    GROUPING SETS (
      (s."disease", s."age"),
      (s."disease", s."city"),
      (s."disease", s."income")
    )
), "pairs0" AS (
  SELECT DISTINCT
    "s0",
    CAST(d."v0" AS DOUBLE PRECISION) AS pos
  FROM source_values AS d
  WHERE
    d."g0" = 0
), "ranges0" AS (
  SELECT
    "s0",
    lo,
    hi,
    n
  FROM (
    SELECT
      "s0",
      lo,
      hi,
      SUM(n) AS n
    FROM (
      SELECT
        r."disease" AS "s0",
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."age" AS TEXT) FROM 2 FOR LENGTH(CAST(r."age" AS TEXT)) - 2),
          ', ',
          1
        ) AS DOUBLE PRECISION) AS lo,
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."age" AS TEXT) FROM 2 FOR LENGTH(CAST(r."age" AS TEXT)) - 2),
          ', ',
          2
        ) AS DOUBLE PRECISION) AS hi,
        r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE
        CAST(r."age" AS TEXT) LIKE '[%'
    ) AS published
    GROUP BY
      "s0",
      lo,
      hi
  ) AS distinct_ranges
  WHERE
    lo < hi
), "pairs1" AS (
  SELECT DISTINCT
    "s0",
    CAST(leaf.first_leaf AS DOUBLE PRECISION) AS pos
  FROM source_values AS d
  JOIN "anon_private"."people__hierarchy_nodes" AS leaf
    ON leaf.attribute = 'city'
    AND leaf.leaf_count = 1
    AND leaf.label = CAST(d."v1" AS TEXT)
  WHERE
    d."g1" = 0
), "ranges1" AS (
  SELECT
    "s0",
    lo,
    hi,
    n
  FROM (
    SELECT
      "s0",
      lo,
      hi,
      SUM(n) AS n
    FROM (
      SELECT
        r."disease" AS "s0",
        CAST(node.first_leaf AS DOUBLE PRECISION) AS lo,
        CAST(node.last_leaf AS DOUBLE PRECISION) AS hi,
        r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      JOIN "anon_private"."people__hierarchy_nodes" AS node
        ON node.attribute = 'city'
        AND node.leaf_count > 1
        AND node.label = CAST(r."city" AS TEXT)
    ) AS published
    GROUP BY
      "s0",
      lo,
      hi
  ) AS distinct_ranges
  WHERE
    lo < hi
), "pairs2" AS (
  SELECT DISTINCT
    "s0",
    CAST(d."v2" AS DOUBLE PRECISION) AS pos
  FROM source_values AS d
  WHERE
    d."g2" = 0
), "ranges2" AS (
  SELECT
    "s0",
    lo,
    hi,
    n
  FROM (
    SELECT
      "s0",
      lo,
      hi,
      SUM(n) AS n
    FROM (
      SELECT
        r."disease" AS "s0",
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."income" AS TEXT) FROM 2 FOR LENGTH(CAST(r."income" AS TEXT)) - 2),
          ', ',
          1
        ) AS DOUBLE PRECISION) AS lo,
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."income" AS TEXT) FROM 2 FOR LENGTH(CAST(r."income" AS TEXT)) - 2),
          ', ',
          2
        ) AS DOUBLE PRECISION) AS hi,
        r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE
        CAST(r."income" AS TEXT) LIKE '[%'
    ) AS published
    GROUP BY
      "s0",
      lo,
      hi
  ) AS distinct_ranges
  WHERE
    lo < hi
), events AS (
  SELECT
    0 AS q,
    "s0",
    pos,
    1 AS kind,
    CAST(NULL AS DOUBLE PRECISION) AS rlo,
    CAST(NULL AS DOUBLE PRECISION) AS rhi,
    CAST(0 AS BIGINT) AS n
  FROM "pairs0"
  UNION ALL
  SELECT
    0 AS q,
    "s0",
    lo AS pos,
    0 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT
    0 AS q,
    "s0",
    hi AS pos,
    2 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT
    1 AS q,
    "s0",
    pos,
    1 AS kind,
    CAST(NULL AS DOUBLE PRECISION) AS rlo,
    CAST(NULL AS DOUBLE PRECISION) AS rhi,
    CAST(0 AS BIGINT) AS n
  FROM "pairs1"
  UNION ALL
  SELECT
    1 AS q,
    "s0",
    lo AS pos,
    0 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT
    1 AS q,
    "s0",
    hi AS pos,
    2 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT
    2 AS q,
    "s0",
    pos,
    1 AS kind,
    CAST(NULL AS DOUBLE PRECISION) AS rlo,
    CAST(NULL AS DOUBLE PRECISION) AS rhi,
    CAST(0 AS BIGINT) AS n
  FROM "pairs2"
  UNION ALL
  SELECT
    2 AS q,
    "s0",
    lo AS pos,
    0 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges2"
  UNION ALL
  SELECT
    2 AS q,
    "s0",
    hi AS pos,
    2 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges2"
), counted AS (
  SELECT
    q,
    "s0",
    kind,
    rlo,
    rhi,
    n,
    SUM(CASE WHEN kind = 1 THEN 1 ELSE 0 END) OVER (
      PARTITION BY q, "s0"
      ORDER BY pos, kind
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS seen
  FROM events
), candidates AS (
  SELECT
    q,
    MAX(n) AS n,
    MAX(CASE WHEN kind = 2 THEN seen END) - MAX(CASE WHEN kind = 0 THEN seen END) AS found
  FROM counted
  WHERE
    kind <> 1
  GROUP BY
    q,
    "s0",
    rlo,
    rhi
)
SELECT
  q,
  CAST(SUM(CASE WHEN found = 1 THEN n ELSE 0 END) AS BIGINT) AS recovered
FROM candidates
GROUP BY
  q;

WITH source_values AS MATERIALIZED (
  SELECT
    s."note" AS "s0",
    s."disease" AS "s1",
    s."age" AS "v0",
    GROUPING(s."age") AS "g0",
    s."city" AS "v1",
    GROUPING(s."city") AS "g1",
    s."income" AS "v2",
    GROUPING(s."income") AS "g2"
  FROM (
    SELECT
      r."note",
      r."disease",
      r."age",
      r."city",
      r."income"
    FROM "anon_private"."people__source" AS r
    GROUP BY
      r."note",
      r."disease",
      r."age",
      r."city",
      r."income"
  ) AS s
  GROUP BY
    GROUPING SETS (
      (s."note", s."disease", s."age"),
      (s."note", s."disease", s."city"),
      (s."note", s."disease", s."income")
    )
), "pairs0" AS (
  SELECT DISTINCT
    "s0",
    "s1",
    CAST(d."v0" AS DOUBLE PRECISION) AS pos
  FROM source_values AS d
  WHERE
    d."g0" = 0
), "ranges0" AS (
  SELECT
    "s0",
    "s1",
    lo,
    hi,
    n
  FROM (
    SELECT
      "s0",
      "s1",
      lo,
      hi,
      SUM(n) AS n
    FROM (
      SELECT
        r."note" AS "s0",
        r."disease" AS "s1",
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."age" AS TEXT) FROM 2 FOR LENGTH(CAST(r."age" AS TEXT)) - 2),
          ', ',
          1
        ) AS DOUBLE PRECISION) AS lo,
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."age" AS TEXT) FROM 2 FOR LENGTH(CAST(r."age" AS TEXT)) - 2),
          ', ',
          2
        ) AS DOUBLE PRECISION) AS hi,
        r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE
        CAST(r."age" AS TEXT) LIKE '[%'
    ) AS published
    GROUP BY
      "s0",
      "s1",
      lo,
      hi
  ) AS distinct_ranges
  WHERE
    lo < hi
), "pairs1" AS (
  SELECT DISTINCT
    "s0",
    "s1",
    CAST(leaf.first_leaf AS DOUBLE PRECISION) AS pos
  FROM source_values AS d
  JOIN "anon_private"."people__hierarchy_nodes" AS leaf
    ON leaf.attribute = 'city'
    AND leaf.leaf_count = 1
    AND leaf.label = CAST(d."v1" AS TEXT)
  WHERE
    d."g1" = 0
), "ranges1" AS (
  SELECT
    "s0",
    "s1",
    lo,
    hi,
    n
  FROM (
    SELECT
      "s0",
      "s1",
      lo,
      hi,
      SUM(n) AS n
    FROM (
      SELECT
        r."note" AS "s0",
        r."disease" AS "s1",
        CAST(node.first_leaf AS DOUBLE PRECISION) AS lo,
        CAST(node.last_leaf AS DOUBLE PRECISION) AS hi,
        r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      JOIN "anon_private"."people__hierarchy_nodes" AS node
        ON node.attribute = 'city'
        AND node.leaf_count > 1
        AND node.label = CAST(r."city" AS TEXT)
    ) AS published
    GROUP BY
      "s0",
      "s1",
      lo,
      hi
  ) AS distinct_ranges
  WHERE
    lo < hi
), "pairs2" AS (
  SELECT DISTINCT
    "s0",
    "s1",
    CAST(d."v2" AS DOUBLE PRECISION) AS pos
  FROM source_values AS d
  WHERE
    d."g2" = 0
), "ranges2" AS (
  SELECT
    "s0",
    "s1",
    lo,
    hi,
    n
  FROM (
    SELECT
      "s0",
      "s1",
      lo,
      hi,
      SUM(n) AS n
    FROM (
      SELECT
        r."note" AS "s0",
        r."disease" AS "s1",
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."income" AS TEXT) FROM 2 FOR LENGTH(CAST(r."income" AS TEXT)) - 2),
          ', ',
          1
        ) AS DOUBLE PRECISION) AS lo,
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."income" AS TEXT) FROM 2 FOR LENGTH(CAST(r."income" AS TEXT)) - 2),
          ', ',
          2
        ) AS DOUBLE PRECISION) AS hi,
        r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE
        CAST(r."income" AS TEXT) LIKE '[%'
    ) AS published
    GROUP BY
      "s0",
      "s1",
      lo,
      hi
  ) AS distinct_ranges
  WHERE
    lo < hi
), events AS (
  SELECT
    0 AS q,
    "s0",
    "s1",
    pos,
    1 AS kind,
    CAST(NULL AS DOUBLE PRECISION) AS rlo,
    CAST(NULL AS DOUBLE PRECISION) AS rhi,
    CAST(0 AS BIGINT) AS n
  FROM "pairs0"
  UNION ALL
  SELECT
    0 AS q,
    "s0",
    "s1",
    lo AS pos,
    0 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT
    0 AS q,
    "s0",
    "s1",
    hi AS pos,
    2 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT
    1 AS q,
    "s0",
    "s1",
    pos,
    1 AS kind,
    CAST(NULL AS DOUBLE PRECISION) AS rlo,
    CAST(NULL AS DOUBLE PRECISION) AS rhi,
    CAST(0 AS BIGINT) AS n
  FROM "pairs1"
  UNION ALL
  SELECT
    1 AS q,
    "s0",
    "s1",
    lo AS pos,
    0 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT
    1 AS q,
    "s0",
    "s1",
    hi AS pos,
    2 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT
    2 AS q,
    "s0",
    "s1",
    pos,
    1 AS kind,
    CAST(NULL AS DOUBLE PRECISION) AS rlo,
    CAST(NULL AS DOUBLE PRECISION) AS rhi,
    CAST(0 AS BIGINT) AS n
  FROM "pairs2"
  UNION ALL
  SELECT
    2 AS q,
    "s0",
    "s1",
    lo AS pos,
    0 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges2"
  UNION ALL
  SELECT
    2 AS q,
    "s0",
    "s1",
    hi AS pos,
    2 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges2"
), counted AS (
  SELECT
    q,
    "s0",
    "s1",
    kind,
    rlo,
    rhi,
    n,
    SUM(CASE WHEN kind = 1 THEN 1 ELSE 0 END) OVER (
      PARTITION BY q, "s0", "s1"
      ORDER BY pos, kind
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS seen
  FROM events
), candidates AS (
  SELECT
    q,
    MAX(n) AS n,
    MAX(CASE WHEN kind = 2 THEN seen END) - MAX(CASE WHEN kind = 0 THEN seen END) AS found
  FROM counted
  WHERE
    kind <> 1
  GROUP BY
    q,
    "s0",
    "s1",
    rlo,
    rhi
)
SELECT
  q,
  CAST(SUM(CASE WHEN found = 1 THEN n ELSE 0 END) AS BIGINT) AS recovered
FROM candidates
GROUP BY
  q;

SELECT
  COUNT(*) AS classes,
  SUM(class_size) AS published,
  SUM(class_size * class_size) AS squares
FROM "anon"."people__classes" AS c;

SELECT
  COALESCE(SUM(r.class_size), 0) AS published,
  SUM(
    CASE
      WHEN CAST(r."age" AS TEXT) LIKE '[%' AND 72.0 > 0
      THEN CAST(r.class_size * (
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."age" AS TEXT) FROM 2 FOR LENGTH(CAST(r."age" AS TEXT)) - 2),
          ', ',
          2
        ) AS DOUBLE PRECISION) - CAST(SPLIT_PART(
          SUBSTRING(CAST(r."age" AS TEXT) FROM 2 FOR LENGTH(CAST(r."age" AS TEXT)) - 2),
          ', ',
          1
        ) AS DOUBLE PRECISION)
      ) AS DOUBLE PRECISION) / 72.0
      ELSE 0
    END
  ) AS "penalty0",
  0 AS "unmatched0",
  SUM(
    CASE
      WHEN NOT "h1".label IS NULL
      THEN r.class_size * "h1".ncp
      WHEN SUBSTRING(CAST(r."city" AS TEXT) FROM 1 FOR 1) = '{'
      AND (
        LENGTH(CAST(r."city" AS TEXT)) - LENGTH(REPLACE(CAST(r."city" AS TEXT), ',', '')) + 1
      ) > 1
      THEN CAST(r.class_size * CAST((
        LENGTH(CAST(r."city" AS TEXT)) - LENGTH(REPLACE(CAST(r."city" AS TEXT), ',', '')) + 1
      ) AS DOUBLE PRECISION) AS DOUBLE PRECISION) / 8
      ELSE 0
    END
  ) AS "penalty1",
  SUM(
    CASE
      WHEN "h1".label IS NULL AND NOT SUBSTRING(CAST(r."city" AS TEXT) FROM 1 FOR 1) = '{'
      THEN r.class_size
      ELSE 0
    END
  ) AS "unmatched1",
  SUM(
    CASE
      WHEN CAST(r."income" AS TEXT) LIKE '[%' AND 190000.0 > 0
      THEN CAST(r.class_size * (
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."income" AS TEXT) FROM 2 FOR LENGTH(CAST(r."income" AS TEXT)) - 2),
          ', ',
          2
        ) AS DOUBLE PRECISION) - CAST(SPLIT_PART(
          SUBSTRING(CAST(r."income" AS TEXT) FROM 2 FOR LENGTH(CAST(r."income" AS TEXT)) - 2),
          ', ',
          1
        ) AS DOUBLE PRECISION)
      ) AS DOUBLE PRECISION) / 190000.0
      ELSE 0
    END
  ) AS "penalty2",
  0 AS "unmatched2"
FROM "anon"."people__classes" AS r
LEFT JOIN "anon_private"."people__hierarchy_nodes" AS "h1"
  ON "h1".attribute = 'city' AND "h1".label = CAST(r."city" AS TEXT);

SELECT
  class_size,
  CAST(COUNT(*) AS BIGINT) AS classes
FROM "anon"."people__classes" AS c
GROUP BY
  class_size
ORDER BY
  class_size;

CREATE TABLE "anon"."people__metrics" (
  "metric" TEXT,
  "attribute" TEXT,
  "value" DOUBLE PRECISION
);

COPY "anon"."people__metrics" (
  "metric",
  "attribute",
  "value"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anon"."people__metrics";

WITH class_rows AS (
  SELECT
    CAST(COUNT(*) AS BIGINT) AS n
  FROM "anonsql_work_RUN"."v_batch" AS r
  GROUP BY
    "age",
    "city",
    "income"
)
SELECT
  n AS class_size,
  CAST(COUNT(*) AS BIGINT) AS classes
FROM class_rows
GROUP BY
  n
ORDER BY
  n;

WITH source_values AS MATERIALIZED (
  SELECT
    s."note" AS "s0",
    s."age" AS "v0",
    GROUPING(s."age") AS "g0",
    s."city" AS "v1",
    GROUPING(s."city") AS "g1",
    s."income" AS "v2",
    GROUPING(s."income") AS "g2"
  FROM (
    SELECT
      r."note",
      r."age",
      r."city",
      r."income"
    FROM "anon_private"."people__source" AS r
    GROUP BY
      r."note",
      r."age",
      r."city",
      r."income"
  ) AS s
  GROUP BY
    GROUPING SETS (
      (s."note", s."age"),
      (s."note", s."city"),
      (s."note", s."income")
    )
), "pairs0" AS (
  SELECT DISTINCT
    "s0",
    CAST(d."v0" AS DOUBLE PRECISION) AS pos
  FROM source_values AS d
  WHERE
    d."g0" = 0
), "ranges0" AS (
  SELECT
    "s0",
    lo,
    hi,
    n
  FROM (
    SELECT
      "s0",
      lo,
      hi,
      SUM(n) AS n
    FROM (
      SELECT
        r."note" AS "s0",
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."age" AS TEXT) FROM 2 FOR LENGTH(CAST(r."age" AS TEXT)) - 2),
          ', ',
          1
        ) AS DOUBLE PRECISION) AS lo,
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."age" AS TEXT) FROM 2 FOR LENGTH(CAST(r."age" AS TEXT)) - 2),
          ', ',
          2
        ) AS DOUBLE PRECISION) AS hi,
        r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE
        CAST(r."age" AS TEXT) LIKE '[%'
    ) AS published
    GROUP BY
      "s0",
      lo,
      hi
  ) AS distinct_ranges
  WHERE
    lo < hi
), "pairs1" AS (
  SELECT DISTINCT
    "s0",
    CAST(leaf.first_leaf AS DOUBLE PRECISION) AS pos
  FROM source_values AS d
  JOIN "anon_private"."people__hierarchy_nodes" AS leaf
    ON leaf.attribute = 'city'
    AND leaf.leaf_count = 1
    AND leaf.label = CAST(d."v1" AS TEXT)
  WHERE
    d."g1" = 0
), "ranges1" AS (
  SELECT
    "s0",
    lo,
    hi,
    n
  FROM (
    SELECT
      "s0",
      lo,
      hi,
      SUM(n) AS n
    FROM (
      SELECT
        r."note" AS "s0",
        CAST(node.first_leaf AS DOUBLE PRECISION) AS lo,
        CAST(node.last_leaf AS DOUBLE PRECISION) AS hi,
        r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      JOIN "anon_private"."people__hierarchy_nodes" AS node
        ON node.attribute = 'city'
        AND node.leaf_count > 1
        AND node.label = CAST(r."city" AS TEXT)
    ) AS published
    GROUP BY
      "s0",
      lo,
      hi
  ) AS distinct_ranges
  WHERE
    lo < hi
), "pairs2" AS (
  SELECT DISTINCT
    "s0",
    CAST(d."v2" AS DOUBLE PRECISION) AS pos
  FROM source_values AS d
  WHERE
    d."g2" = 0
), "ranges2" AS (
  SELECT
    "s0",
    lo,
    hi,
    n
  FROM (
    SELECT
      "s0",
      lo,
      hi,
      SUM(n) AS n
    FROM (
      SELECT
        r."note" AS "s0",
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."income" AS TEXT) FROM 2 FOR LENGTH(CAST(r."income" AS TEXT)) - 2),
          ', ',
          1
        ) AS DOUBLE PRECISION) AS lo,
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."income" AS TEXT) FROM 2 FOR LENGTH(CAST(r."income" AS TEXT)) - 2),
          ', ',
          2
        ) AS DOUBLE PRECISION) AS hi,
        r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE
        CAST(r."income" AS TEXT) LIKE '[%'
    ) AS published
    GROUP BY
      "s0",
      lo,
      hi
  ) AS distinct_ranges
  WHERE
    lo < hi
), events AS (
  SELECT
    0 AS q,
    "s0",
    pos,
    1 AS kind,
    CAST(NULL AS DOUBLE PRECISION) AS rlo,
    CAST(NULL AS DOUBLE PRECISION) AS rhi,
    CAST(0 AS BIGINT) AS n
  FROM "pairs0"
  UNION ALL
  SELECT
    0 AS q,
    "s0",
    lo AS pos,
    0 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT
    0 AS q,
    "s0",
    hi AS pos,
    2 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT
    1 AS q,
    "s0",
    pos,
    1 AS kind,
    CAST(NULL AS DOUBLE PRECISION) AS rlo,
    CAST(NULL AS DOUBLE PRECISION) AS rhi,
    CAST(0 AS BIGINT) AS n
  FROM "pairs1"
  UNION ALL
  SELECT
    1 AS q,
    "s0",
    lo AS pos,
    0 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT
    1 AS q,
    "s0",
    hi AS pos,
    2 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT
    2 AS q,
    "s0",
    pos,
    1 AS kind,
    CAST(NULL AS DOUBLE PRECISION) AS rlo,
    CAST(NULL AS DOUBLE PRECISION) AS rhi,
    CAST(0 AS BIGINT) AS n
  FROM "pairs2"
  UNION ALL
  SELECT
    2 AS q,
    "s0",
    lo AS pos,
    0 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges2"
  UNION ALL
  SELECT
    2 AS q,
    "s0",
    hi AS pos,
    2 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges2"
), counted AS (
  SELECT
    q,
    "s0",
    kind,
    rlo,
    rhi,
    n,
    SUM(CASE WHEN kind = 1 THEN 1 ELSE 0 END) OVER (
      PARTITION BY q, "s0"
      ORDER BY pos, kind
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS seen
  FROM events
), candidates AS (
  SELECT
    q,
    MAX(n) AS n,
    MAX(CASE WHEN kind = 2 THEN seen END) - MAX(CASE WHEN kind = 0 THEN seen END) AS found
  FROM counted
  WHERE
    kind <> 1
  GROUP BY
    q,
    "s0",
    rlo,
    rhi
)
SELECT
  q,
  CAST(SUM(CASE WHEN found = 1 THEN n ELSE 0 END) AS BIGINT) AS recovered
FROM candidates
GROUP BY
  q;

SELECT
  COALESCE(SUM(rows_in), 0) AS small_rows
FROM (
  SELECT
    SUM(r."__anonsql_rows") AS rows_in,
    SUM(r."__anonsql_rows") AS individuals
  FROM "anon_private"."people__version_groups" AS r
  GROUP BY
    r."age",
    r."city",
    r."income",
    r."note"
) AS classes
WHERE
  individuals < 5;

WITH source_values AS MATERIALIZED (
  SELECT
    s."disease" AS "s0",
    s."note" AS "s1",
    s."age" AS "v0",
    GROUPING(s."age") AS "g0",
    s."city" AS "v1",
    GROUPING(s."city") AS "g1",
    s."income" AS "v2",
    GROUPING(s."income") AS "g2"
  FROM (
    SELECT
      r."disease",
      r."note",
      r."age",
      r."city",
      r."income"
    FROM "anon_private"."people__source" AS r
    GROUP BY
      r."disease",
      r."note",
      r."age",
      r."city",
      r."income"
  ) AS s
  GROUP BY
    GROUPING SETS (
      (s."disease", s."note", s."age"),
      (s."disease", s."note", s."city"),
      (s."disease", s."note", s."income")
    )
), "pairs0" AS (
  SELECT DISTINCT
    "s0",
    "s1",
    CAST(d."v0" AS DOUBLE PRECISION) AS pos
  FROM source_values AS d
  WHERE
    d."g0" = 0
), "ranges0" AS (
  SELECT
    "s0",
    "s1",
    lo,
    hi,
    n
  FROM (
    SELECT
      "s0",
      "s1",
      lo,
      hi,
      SUM(n) AS n
    FROM (
      SELECT
        r."disease" AS "s0",
        r."note" AS "s1",
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."age" AS TEXT) FROM 2 FOR LENGTH(CAST(r."age" AS TEXT)) - 2),
          ', ',
          1
        ) AS DOUBLE PRECISION) AS lo,
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."age" AS TEXT) FROM 2 FOR LENGTH(CAST(r."age" AS TEXT)) - 2),
          ', ',
          2
        ) AS DOUBLE PRECISION) AS hi,
        r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE
        CAST(r."age" AS TEXT) LIKE '[%'
    ) AS published
    GROUP BY
      "s0",
      "s1",
      lo,
      hi
  ) AS distinct_ranges
  WHERE
    lo < hi
), "pairs1" AS (
  SELECT DISTINCT
    "s0",
    "s1",
    CAST(leaf.first_leaf AS DOUBLE PRECISION) AS pos
  FROM source_values AS d
  JOIN "anon_private"."people__hierarchy_nodes" AS leaf
    ON leaf.attribute = 'city'
    AND leaf.leaf_count = 1
    AND leaf.label = CAST(d."v1" AS TEXT)
  WHERE
    d."g1" = 0
), "ranges1" AS (
  SELECT
    "s0",
    "s1",
    lo,
    hi,
    n
  FROM (
    SELECT
      "s0",
      "s1",
      lo,
      hi,
      SUM(n) AS n
    FROM (
      SELECT
        r."disease" AS "s0",
        r."note" AS "s1",
        CAST(node.first_leaf AS DOUBLE PRECISION) AS lo,
        CAST(node.last_leaf AS DOUBLE PRECISION) AS hi,
        r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      JOIN "anon_private"."people__hierarchy_nodes" AS node
        ON node.attribute = 'city'
        AND node.leaf_count > 1
        AND node.label = CAST(r."city" AS TEXT)
    ) AS published
    GROUP BY
      "s0",
      "s1",
      lo,
      hi
  ) AS distinct_ranges
  WHERE
    lo < hi
), "pairs2" AS (
  SELECT DISTINCT
    "s0",
    "s1",
    CAST(d."v2" AS DOUBLE PRECISION) AS pos
  FROM source_values AS d
  WHERE
    d."g2" = 0
), "ranges2" AS (
  SELECT
    "s0",
    "s1",
    lo,
    hi,
    n
  FROM (
    SELECT
      "s0",
      "s1",
      lo,
      hi,
      SUM(n) AS n
    FROM (
      SELECT
        r."disease" AS "s0",
        r."note" AS "s1",
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."income" AS TEXT) FROM 2 FOR LENGTH(CAST(r."income" AS TEXT)) - 2),
          ', ',
          1
        ) AS DOUBLE PRECISION) AS lo,
        CAST(SPLIT_PART(
          SUBSTRING(CAST(r."income" AS TEXT) FROM 2 FOR LENGTH(CAST(r."income" AS TEXT)) - 2),
          ', ',
          2
        ) AS DOUBLE PRECISION) AS hi,
        r."__anonsql_rows" AS n
      FROM "anon_private"."people__version_groups" AS r
      WHERE
        CAST(r."income" AS TEXT) LIKE '[%'
    ) AS published
    GROUP BY
      "s0",
      "s1",
      lo,
      hi
  ) AS distinct_ranges
  WHERE
    lo < hi
), events AS (
  SELECT
    0 AS q,
    "s0",
    "s1",
    pos,
    1 AS kind,
    CAST(NULL AS DOUBLE PRECISION) AS rlo,
    CAST(NULL AS DOUBLE PRECISION) AS rhi,
    CAST(0 AS BIGINT) AS n
  FROM "pairs0"
  UNION ALL
  SELECT
    0 AS q,
    "s0",
    "s1",
    lo AS pos,
    0 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT
    0 AS q,
    "s0",
    "s1",
    hi AS pos,
    2 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges0"
  UNION ALL
  SELECT
    1 AS q,
    "s0",
    "s1",
    pos,
    1 AS kind,
    CAST(NULL AS DOUBLE PRECISION) AS rlo,
    CAST(NULL AS DOUBLE PRECISION) AS rhi,
    CAST(0 AS BIGINT) AS n
  FROM "pairs1"
  UNION ALL
  SELECT
    1 AS q,
    "s0",
    "s1",
    lo AS pos,
    0 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT
    1 AS q,
    "s0",
    "s1",
    hi AS pos,
    2 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges1"
  UNION ALL
  SELECT
    2 AS q,
    "s0",
    "s1",
    pos,
    1 AS kind,
    CAST(NULL AS DOUBLE PRECISION) AS rlo,
    CAST(NULL AS DOUBLE PRECISION) AS rhi,
    CAST(0 AS BIGINT) AS n
  FROM "pairs2"
  UNION ALL
  SELECT
    2 AS q,
    "s0",
    "s1",
    lo AS pos,
    0 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges2"
  UNION ALL
  SELECT
    2 AS q,
    "s0",
    "s1",
    hi AS pos,
    2 AS kind,
    lo AS rlo,
    hi AS rhi,
    CAST(n AS BIGINT) AS n
  FROM "ranges2"
), counted AS (
  SELECT
    q,
    "s0",
    "s1",
    kind,
    rlo,
    rhi,
    n,
    SUM(CASE WHEN kind = 1 THEN 1 ELSE 0 END) OVER (
      PARTITION BY q, "s0", "s1"
      ORDER BY pos, kind
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS seen
  FROM events
), candidates AS (
  SELECT
    q,
    MAX(n) AS n,
    MAX(CASE WHEN kind = 2 THEN seen END) - MAX(CASE WHEN kind = 0 THEN seen END) AS found
  FROM counted
  WHERE
    kind <> 1
  GROUP BY
    q,
    "s0",
    "s1",
    rlo,
    rhi
)
SELECT
  q,
  CAST(SUM(CASE WHEN found = 1 THEN n ELSE 0 END) AS BIGINT) AS recovered
FROM candidates
GROUP BY
  q;

SELECT
  COALESCE(SUM(rows_in), 0) AS small_rows
FROM (
  SELECT
    SUM(r."__anonsql_rows") AS rows_in,
    SUM(r."__anonsql_rows") AS individuals
  FROM "anon_private"."people__version_groups" AS r
  GROUP BY
    r."age",
    r."city",
    r."income",
    r."note"
) AS classes
WHERE
  individuals < 5;

CREATE TABLE "anon"."people__certificate" (
  "run_id" TEXT,
  "created_at" TEXT,
  "anonsql_version" TEXT,
  "source" TEXT,
  "output" TEXT,
  "materialize" TEXT,
  "quasi_identifiers" TEXT,
  "sensitive" TEXT,
  "models" TEXT,
  "algorithm" TEXT,
  "algorithm_options" TEXT,
  "verified" BOOLEAN,
  "violations" TEXT,
  "source_rows" BIGINT,
  "published_rows" BIGINT,
  "suppressed_rows" BIGINT,
  "suppression_limit" DOUBLE PRECISION,
  "classes" BIGINT,
  "ncp_percent" DOUBLE PRECISION,
  "dropped_columns" TEXT,
  "private_schema" TEXT,
  "linked_columns" TEXT,
  "counts" TEXT,
  "live_view" BOOLEAN,
  "live_view_risk" TEXT,
  "spec_sha256" TEXT,
  "seconds" DOUBLE PRECISION,
  "source_risk" TEXT,
  "risk_settings" TEXT,
  "attacks" TEXT,
  "history" TEXT,
  "person_level" TEXT,
  "search" TEXT,
  "version" BIGINT,
  "freshness" TEXT,
  "individuals" BIGINT,
  "held_rows" BIGINT,
  "pending_deletions" BIGINT
);

COPY "anon"."people__certificate" (
  "run_id",
  "created_at",
  "anonsql_version",
  "source",
  "output",
  "materialize",
  "quasi_identifiers",
  "sensitive",
  "models",
  "algorithm",
  "algorithm_options",
  "verified",
  "violations",
  "source_rows",
  "published_rows",
  "suppressed_rows",
  "suppression_limit",
  "classes",
  "ncp_percent",
  "dropped_columns",
  "private_schema",
  "linked_columns",
  "counts",
  "live_view",
  "live_view_risk",
  "spec_sha256",
  "seconds",
  "source_risk",
  "risk_settings",
  "attacks",
  "history",
  "person_level",
  "search",
  "version",
  "freshness",
  "individuals",
  "held_rows",
  "pending_deletions"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anon"."people__certificate";

COMMIT;

DROP SCHEMA IF EXISTS "anonsql_work_RUN" CASCADE;

SELECT
  PG_ADVISORY_UNLOCK(RUN);

SET "enable_mergejoin" = 'on';

SET "enable_nestloop" = 'on';

SET "work_mem" = '4MB';

SET "jit" = 'on';

SET "parallel_tuple_cost" = '0.1';

SET "default_statistics_target" = '100';
