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
  table_schema = 'main' AND table_name = 'visits'
ORDER BY
  ordinal_position;

SELECT
  COUNT(*) AS "rows",
  COUNT(*) - COUNT("age") AS "nulls0",
  COUNT(*) - COUNT("gender") AS "nulls1",
  COUNT(*) - COUNT("zip") AS "nulls2"
FROM "main"."visits" AS src;

SELECT
  COUNT(DISTINCT "pid") AS persons,
  COUNT(*) - COUNT("pid") AS null_persons,
  COUNT(*) - COUNT("disease") AS null_items,
  COUNT(DISTINCT "disease") AS items
FROM "main"."visits" AS src;

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
    table_schema = 'anon_private' AND table_name IN ('visits__versions')
  );

SELECT
  table_schema,
  table_name,
  table_type
FROM information_schema.tables
WHERE
  (
    table_schema = 'anon_private'
    AND table_name IN ('visits__left_rows', 'visits__history', 'visits__labels')
  );

SELECT
  COUNT(*)
FROM information_schema.schemata
WHERE
  schema_name = 'anonsql_work_RUN';

CREATE TABLE "anonsql_work_RUN"."leaves0" (
  "value" TEXT,
  "leaf_rank" INT
);

COPY "anonsql_work_RUN"."leaves0" (
  "value",
  "leaf_rank"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."leaves0";

CREATE TABLE "anonsql_work_RUN"."nodes0" (
  "node_id" INT,
  "label" TEXT,
  "depth" INT,
  "parent_id" INT,
  "first_leaf" INT,
  "last_leaf" INT,
  "leaf_count" INT,
  "ncp" DOUBLE PRECISION
);

COPY "anonsql_work_RUN"."nodes0" (
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

ANALYZE "anonsql_work_RUN"."nodes0";

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

CREATE TABLE "anonsql_work_RUN"."leaves2" (
  "value" TEXT,
  "leaf_rank" INT
);

COPY "anonsql_work_RUN"."leaves2" (
  "value",
  "leaf_rank"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."leaves2";

CREATE TABLE "anonsql_work_RUN"."nodes2" (
  "node_id" INT,
  "label" TEXT,
  "depth" INT,
  "parent_id" INT,
  "first_leaf" INT,
  "last_leaf" INT,
  "leaf_count" INT,
  "ncp" DOUBLE PRECISION
);

COPY "anonsql_work_RUN"."nodes2" (
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

ANALYZE "anonsql_work_RUN"."nodes2";

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

SELECT
  COALESCE(SUM(CASE WHEN "l0".value IS NULL THEN 1 ELSE 0 END), 0) AS "uncovered0",
  COALESCE(SUM(CASE WHEN "l1".value IS NULL THEN 1 ELSE 0 END), 0) AS "uncovered1",
  COALESCE(SUM(CASE WHEN "l2".value IS NULL THEN 1 ELSE 0 END), 0) AS "uncovered2"
FROM "main"."visits" AS s
LEFT JOIN "anonsql_work_RUN"."leaves0" AS "l0"
  ON "l0".value = CAST(s."age" AS TEXT)
LEFT JOIN "anonsql_work_RUN"."leaves1" AS "l1"
  ON "l1".value = CAST(s."gender" AS TEXT)
LEFT JOIN "anonsql_work_RUN"."leaves2" AS "l2"
  ON "l2".value = CAST(s."zip" AS TEXT);

CREATE TABLE "anonsql_work_RUN"."sa_leaves" (
  "value" TEXT,
  "leaf_rank" INT
);

COPY "anonsql_work_RUN"."sa_leaves" (
  "value",
  "leaf_rank"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."sa_leaves";

CREATE TABLE "anonsql_work_RUN"."sa_nodes" (
  "node_id" INT,
  "label" TEXT,
  "depth" INT,
  "parent_id" INT,
  "first_leaf" INT,
  "last_leaf" INT,
  "leaf_count" INT,
  "ncp" DOUBLE PRECISION
);

COPY "anonsql_work_RUN"."sa_nodes" (
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

ANALYZE "anonsql_work_RUN"."sa_nodes";

SELECT
  COUNT(*) AS uncovered_rows,
  COUNT(DISTINCT src.value) + CASE WHEN COUNT(*) > COUNT(src.value) THEN 1 ELSE 0 END AS uncovered_values
FROM (
  SELECT
    CAST("disease" AS TEXT) AS value
  FROM "main"."visits" AS s
) AS src
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM "anonsql_work_RUN"."sa_leaves" AS leaf
    WHERE
      leaf.value = src.value
  );

CREATE TABLE "anonsql_work_RUN"."sa_ancestors" (
  "leaf_rank" INT,
  "depth" INT,
  "node_id" INT,
  "ordinal" INT
);

COPY "anonsql_work_RUN"."sa_ancestors" (
  "leaf_rank",
  "depth",
  "node_id",
  "ordinal"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."sa_ancestors";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."person_vectors" AS
SELECT
  person_id,
  "q0",
  "q1",
  "q2",
  COUNT(*) AS n
FROM (
  SELECT
    src."pid" AS person_id,
    "l0".leaf_rank AS "q0",
    "l1".leaf_rank AS "q1",
    "l2".leaf_rank AS "q2"
  FROM "main"."visits" AS src
  JOIN "anonsql_work_RUN"."leaves0" AS "l0"
    ON "l0".value = CAST(src."age" AS TEXT)
  JOIN "anonsql_work_RUN"."leaves1" AS "l1"
    ON "l1".value = CAST(src."gender" AS TEXT)
  JOIN "anonsql_work_RUN"."leaves2" AS "l2"
    ON "l2".value = CAST(src."zip" AS TEXT)
) AS coded
GROUP BY
  person_id,
  "q0",
  "q1",
  "q2";

SELECT
  COUNT(*)
FROM (
  SELECT
    person_id
  FROM "anonsql_work_RUN"."person_vectors" AS v
  GROUP BY
    person_id
  HAVING
    COUNT(*) > 1
) AS varying;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."persons" AS
SELECT
  CAST(ROW_NUMBER() OVER (ORDER BY MD5('anonsql:0:' || CAST(person_id AS TEXT))) AS BIGINT) AS person,
  person_id,
  "q0",
  "q1",
  "q2",
  CAST(rows_of_person AS BIGINT) AS n
FROM (
  SELECT
    v.*,
    SUM(n) OVER (PARTITION BY person_id) AS rows_of_person,
    ROW_NUMBER() OVER (PARTITION BY person_id ORDER BY n DESC NULLS LAST, "q0", "q1", "q2") AS choice
  FROM "anonsql_work_RUN"."person_vectors" AS v
) AS ranked
WHERE
  choice = 1;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."items" AS
SELECT DISTINCT
  p.person,
  l.leaf_rank AS leaf,
  CAST(0 AS INT) AS node
FROM "main"."visits" AS src
JOIN "anonsql_work_RUN"."persons" AS p
  ON p.person_id = src."pid"
JOIN "anonsql_work_RUN"."sa_leaves" AS l
  ON l.value = CAST(src."disease" AS TEXT);

DROP TABLE IF EXISTS "anonsql_work_RUN"."person_vectors";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_members" AS
SELECT
  person,
  CAST(0 AS BIGINT) AS bucket
FROM "anonsql_work_RUN"."persons";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_done_members" AS
SELECT
  person,
  bucket
FROM "anonsql_work_RUN"."fp_members"
WHERE
  FALSE;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_done_items" AS
SELECT
  person,
  leaf,
  node
FROM "anonsql_work_RUN"."items"
WHERE
  FALSE;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_tried" AS
SELECT
  bucket,
  CAST(0 AS INT) AS node
FROM "anonsql_work_RUN"."fp_members"
WHERE
  FALSE;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_pick" AS
SELECT
  bucket,
  node,
  depth
FROM (
  SELECT
    m.bucket,
    i.node,
    h.depth,
    ROW_NUMBER() OVER (
      PARTITION BY m.bucket
      ORDER BY COUNT(*) * MAX(h.leaf_count) DESC NULLS LAST, i.node
    ) AS choice
  FROM "anonsql_work_RUN"."items" AS i
  JOIN "anonsql_work_RUN"."fp_members" AS m
    ON m.person = i.person
  JOIN "anonsql_work_RUN"."sa_nodes" AS h
    ON h.node_id = i.node
  WHERE
    h.leaf_count > 1
    AND NOT EXISTS(
      SELECT
        1
      FROM "anonsql_work_RUN"."fp_tried" AS t
      WHERE
        t.bucket = m.bucket AND t.node = i.node
    )
  GROUP BY
    m.bucket,
    i.node,
    h.depth
) AS ranked
WHERE
  choice = 1;

INSERT INTO "anonsql_work_RUN"."fp_tried"
SELECT
  bucket,
  node
FROM "anonsql_work_RUN"."fp_pick";

ANALYZE "anonsql_work_RUN"."fp_pick";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_subsets" AS
SELECT
  person,
  bucket,
  CAST(SUM(CAST(1 AS BIGINT) << child) AS BIGINT) AS subset,
  CAST(SUM(n) AS BIGINT) AS ig
FROM (
  SELECT
    m.person,
    m.bucket,
    a."ordinal" AS child,
    COUNT(*) AS n
  FROM "anonsql_work_RUN"."items" AS i
  JOIN "anonsql_work_RUN"."fp_members" AS m
    ON m.person = i.person
  JOIN "anonsql_work_RUN"."fp_pick" AS p
    ON p.bucket = m.bucket AND p.node = i.node
  JOIN "anonsql_work_RUN"."sa_ancestors" AS a
    ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
  GROUP BY
    m.person,
    m.bucket,
    a."ordinal"
) AS children
GROUP BY
  person,
  bucket;

ANALYZE "anonsql_work_RUN"."fp_subsets";

SELECT
  bucket,
  subset,
  COUNT(*) AS n,
  CAST(SUM(ig) AS BIGINT) AS ig
FROM "anonsql_work_RUN"."fp_subsets"
GROUP BY
  bucket,
  subset
ORDER BY
  bucket,
  subset;

CREATE TABLE "anonsql_work_RUN"."fp_decisions" (
  "bucket" BIGINT,
  "subset" BIGINT,
  "target" BIGINT,
  "moved" BIGINT,
  "expand" BOOLEAN
);

COPY "anonsql_work_RUN"."fp_decisions" (
  "bucket",
  "subset",
  "target",
  "moved",
  "expand"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."fp_decisions";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_assign" AS
SELECT
  s.person,
  s.bucket,
  CASE WHEN s.seq <= d.moved THEN s.bucket ELSE d.target END AS new_bucket,
  CASE WHEN s.seq <= d.moved THEN FALSE ELSE d.expand END AS expand,
  FALSE AS done
FROM (
  SELECT
    person,
    bucket,
    subset,
    ROW_NUMBER() OVER (PARTITION BY bucket, subset ORDER BY ig, person) AS seq
  FROM "anonsql_work_RUN"."fp_subsets"
) AS s
JOIN "anonsql_work_RUN"."fp_decisions" AS d
  ON d.bucket = s.bucket AND d.subset = s.subset
UNION ALL
SELECT
  m.person,
  m.bucket,
  m.bucket AS new_bucket,
  FALSE AS expand,
  TRUE AS done
FROM "anonsql_work_RUN"."fp_members" AS m
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM "anonsql_work_RUN"."fp_pick" AS p
    WHERE
      p.bucket = m.bucket
  );

INSERT INTO "anonsql_work_RUN"."fp_done_items"
SELECT
  i.person,
  i.leaf,
  COALESCE(a.node_id, i.node) AS node
FROM "anonsql_work_RUN"."items" AS i
JOIN "anonsql_work_RUN"."fp_assign" AS g
  ON g.person = i.person
LEFT JOIN "anonsql_work_RUN"."fp_pick" AS p
  ON p.bucket = g.bucket AND g.expand AND p.node = i.node
LEFT JOIN "anonsql_work_RUN"."sa_ancestors" AS a
  ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
WHERE
  g.done;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."items_next" AS
SELECT
  i.person,
  i.leaf,
  COALESCE(a.node_id, i.node) AS node
FROM "anonsql_work_RUN"."items" AS i
JOIN "anonsql_work_RUN"."fp_assign" AS g
  ON g.person = i.person
LEFT JOIN "anonsql_work_RUN"."fp_pick" AS p
  ON p.bucket = g.bucket AND g.expand AND p.node = i.node
LEFT JOIN "anonsql_work_RUN"."sa_ancestors" AS a
  ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
WHERE
  NOT g.done;

INSERT INTO "anonsql_work_RUN"."fp_done_members"
SELECT
  person,
  new_bucket
FROM "anonsql_work_RUN"."fp_assign"
WHERE
  done;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_members_next" AS
SELECT
  person,
  new_bucket AS bucket
FROM "anonsql_work_RUN"."fp_assign"
WHERE
  NOT done;

DROP TABLE "anonsql_work_RUN"."items";

ALTER TABLE "anonsql_work_RUN"."items_next"
RENAME TO "items";

DROP TABLE "anonsql_work_RUN"."fp_members";

ALTER TABLE "anonsql_work_RUN"."fp_members_next"
RENAME TO "fp_members";

DROP TABLE "anonsql_work_RUN"."fp_assign";

ANALYZE "anonsql_work_RUN"."items";

ANALYZE "anonsql_work_RUN"."fp_members";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_pick";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_subsets";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_decisions";

SELECT
  COUNT(*)
FROM "anonsql_work_RUN"."fp_members" AS r;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_pick" AS
SELECT
  bucket,
  node,
  depth
FROM (
  SELECT
    m.bucket,
    i.node,
    h.depth,
    ROW_NUMBER() OVER (
      PARTITION BY m.bucket
      ORDER BY COUNT(*) * MAX(h.leaf_count) DESC NULLS LAST, i.node
    ) AS choice
  FROM "anonsql_work_RUN"."items" AS i
  JOIN "anonsql_work_RUN"."fp_members" AS m
    ON m.person = i.person
  JOIN "anonsql_work_RUN"."sa_nodes" AS h
    ON h.node_id = i.node
  WHERE
    h.leaf_count > 1
    AND NOT EXISTS(
      SELECT
        1
      FROM "anonsql_work_RUN"."fp_tried" AS t
      WHERE
        t.bucket = m.bucket AND t.node = i.node
    )
  GROUP BY
    m.bucket,
    i.node,
    h.depth
) AS ranked
WHERE
  choice = 1;

INSERT INTO "anonsql_work_RUN"."fp_tried"
SELECT
  bucket,
  node
FROM "anonsql_work_RUN"."fp_pick";

ANALYZE "anonsql_work_RUN"."fp_pick";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_subsets" AS
SELECT
  person,
  bucket,
  CAST(SUM(CAST(1 AS BIGINT) << child) AS BIGINT) AS subset,
  CAST(SUM(n) AS BIGINT) AS ig
FROM (
  SELECT
    m.person,
    m.bucket,
    a."ordinal" AS child,
    COUNT(*) AS n
  FROM "anonsql_work_RUN"."items" AS i
  JOIN "anonsql_work_RUN"."fp_members" AS m
    ON m.person = i.person
  JOIN "anonsql_work_RUN"."fp_pick" AS p
    ON p.bucket = m.bucket AND p.node = i.node
  JOIN "anonsql_work_RUN"."sa_ancestors" AS a
    ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
  GROUP BY
    m.person,
    m.bucket,
    a."ordinal"
) AS children
GROUP BY
  person,
  bucket;

ANALYZE "anonsql_work_RUN"."fp_subsets";

SELECT
  bucket,
  subset,
  COUNT(*) AS n,
  CAST(SUM(ig) AS BIGINT) AS ig
FROM "anonsql_work_RUN"."fp_subsets"
GROUP BY
  bucket,
  subset
ORDER BY
  bucket,
  subset;

CREATE TABLE "anonsql_work_RUN"."fp_decisions" (
  "bucket" BIGINT,
  "subset" BIGINT,
  "target" BIGINT,
  "moved" BIGINT,
  "expand" BOOLEAN
);

COPY "anonsql_work_RUN"."fp_decisions" (
  "bucket",
  "subset",
  "target",
  "moved",
  "expand"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."fp_decisions";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_assign" AS
SELECT
  s.person,
  s.bucket,
  CASE WHEN s.seq <= d.moved THEN s.bucket ELSE d.target END AS new_bucket,
  CASE WHEN s.seq <= d.moved THEN FALSE ELSE d.expand END AS expand,
  FALSE AS done
FROM (
  SELECT
    person,
    bucket,
    subset,
    ROW_NUMBER() OVER (PARTITION BY bucket, subset ORDER BY ig, person) AS seq
  FROM "anonsql_work_RUN"."fp_subsets"
) AS s
JOIN "anonsql_work_RUN"."fp_decisions" AS d
  ON d.bucket = s.bucket AND d.subset = s.subset
UNION ALL
SELECT
  m.person,
  m.bucket,
  m.bucket AS new_bucket,
  FALSE AS expand,
  TRUE AS done
FROM "anonsql_work_RUN"."fp_members" AS m
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM "anonsql_work_RUN"."fp_pick" AS p
    WHERE
      p.bucket = m.bucket
  );

INSERT INTO "anonsql_work_RUN"."fp_done_items"
SELECT
  i.person,
  i.leaf,
  COALESCE(a.node_id, i.node) AS node
FROM "anonsql_work_RUN"."items" AS i
JOIN "anonsql_work_RUN"."fp_assign" AS g
  ON g.person = i.person
LEFT JOIN "anonsql_work_RUN"."fp_pick" AS p
  ON p.bucket = g.bucket AND g.expand AND p.node = i.node
LEFT JOIN "anonsql_work_RUN"."sa_ancestors" AS a
  ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
WHERE
  g.done;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."items_next" AS
SELECT
  i.person,
  i.leaf,
  COALESCE(a.node_id, i.node) AS node
FROM "anonsql_work_RUN"."items" AS i
JOIN "anonsql_work_RUN"."fp_assign" AS g
  ON g.person = i.person
LEFT JOIN "anonsql_work_RUN"."fp_pick" AS p
  ON p.bucket = g.bucket AND g.expand AND p.node = i.node
LEFT JOIN "anonsql_work_RUN"."sa_ancestors" AS a
  ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
WHERE
  NOT g.done;

INSERT INTO "anonsql_work_RUN"."fp_done_members"
SELECT
  person,
  new_bucket
FROM "anonsql_work_RUN"."fp_assign"
WHERE
  done;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_members_next" AS
SELECT
  person,
  new_bucket AS bucket
FROM "anonsql_work_RUN"."fp_assign"
WHERE
  NOT done;

DROP TABLE "anonsql_work_RUN"."items";

ALTER TABLE "anonsql_work_RUN"."items_next"
RENAME TO "items";

DROP TABLE "anonsql_work_RUN"."fp_members";

ALTER TABLE "anonsql_work_RUN"."fp_members_next"
RENAME TO "fp_members";

DROP TABLE "anonsql_work_RUN"."fp_assign";

ANALYZE "anonsql_work_RUN"."items";

ANALYZE "anonsql_work_RUN"."fp_members";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_pick";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_subsets";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_decisions";

SELECT
  COUNT(*)
FROM "anonsql_work_RUN"."fp_members" AS r;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_pick" AS
SELECT
  bucket,
  node,
  depth
FROM (
  SELECT
    m.bucket,
    i.node,
    h.depth,
    ROW_NUMBER() OVER (
      PARTITION BY m.bucket
      ORDER BY COUNT(*) * MAX(h.leaf_count) DESC NULLS LAST, i.node
    ) AS choice
  FROM "anonsql_work_RUN"."items" AS i
  JOIN "anonsql_work_RUN"."fp_members" AS m
    ON m.person = i.person
  JOIN "anonsql_work_RUN"."sa_nodes" AS h
    ON h.node_id = i.node
  WHERE
    h.leaf_count > 1
    AND NOT EXISTS(
      SELECT
        1
      FROM "anonsql_work_RUN"."fp_tried" AS t
      WHERE
        t.bucket = m.bucket AND t.node = i.node
    )
  GROUP BY
    m.bucket,
    i.node,
    h.depth
) AS ranked
WHERE
  choice = 1;

INSERT INTO "anonsql_work_RUN"."fp_tried"
SELECT
  bucket,
  node
FROM "anonsql_work_RUN"."fp_pick";

ANALYZE "anonsql_work_RUN"."fp_pick";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_subsets" AS
SELECT
  person,
  bucket,
  CAST(SUM(CAST(1 AS BIGINT) << child) AS BIGINT) AS subset,
  CAST(SUM(n) AS BIGINT) AS ig
FROM (
  SELECT
    m.person,
    m.bucket,
    a."ordinal" AS child,
    COUNT(*) AS n
  FROM "anonsql_work_RUN"."items" AS i
  JOIN "anonsql_work_RUN"."fp_members" AS m
    ON m.person = i.person
  JOIN "anonsql_work_RUN"."fp_pick" AS p
    ON p.bucket = m.bucket AND p.node = i.node
  JOIN "anonsql_work_RUN"."sa_ancestors" AS a
    ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
  GROUP BY
    m.person,
    m.bucket,
    a."ordinal"
) AS children
GROUP BY
  person,
  bucket;

ANALYZE "anonsql_work_RUN"."fp_subsets";

SELECT
  bucket,
  subset,
  COUNT(*) AS n,
  CAST(SUM(ig) AS BIGINT) AS ig
FROM "anonsql_work_RUN"."fp_subsets"
GROUP BY
  bucket,
  subset
ORDER BY
  bucket,
  subset;

CREATE TABLE "anonsql_work_RUN"."fp_decisions" (
  "bucket" BIGINT,
  "subset" BIGINT,
  "target" BIGINT,
  "moved" BIGINT,
  "expand" BOOLEAN
);

COPY "anonsql_work_RUN"."fp_decisions" (
  "bucket",
  "subset",
  "target",
  "moved",
  "expand"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."fp_decisions";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_assign" AS
SELECT
  s.person,
  s.bucket,
  CASE WHEN s.seq <= d.moved THEN s.bucket ELSE d.target END AS new_bucket,
  CASE WHEN s.seq <= d.moved THEN FALSE ELSE d.expand END AS expand,
  FALSE AS done
FROM (
  SELECT
    person,
    bucket,
    subset,
    ROW_NUMBER() OVER (PARTITION BY bucket, subset ORDER BY ig, person) AS seq
  FROM "anonsql_work_RUN"."fp_subsets"
) AS s
JOIN "anonsql_work_RUN"."fp_decisions" AS d
  ON d.bucket = s.bucket AND d.subset = s.subset
UNION ALL
SELECT
  m.person,
  m.bucket,
  m.bucket AS new_bucket,
  FALSE AS expand,
  TRUE AS done
FROM "anonsql_work_RUN"."fp_members" AS m
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM "anonsql_work_RUN"."fp_pick" AS p
    WHERE
      p.bucket = m.bucket
  );

INSERT INTO "anonsql_work_RUN"."fp_done_items"
SELECT
  i.person,
  i.leaf,
  COALESCE(a.node_id, i.node) AS node
FROM "anonsql_work_RUN"."items" AS i
JOIN "anonsql_work_RUN"."fp_assign" AS g
  ON g.person = i.person
LEFT JOIN "anonsql_work_RUN"."fp_pick" AS p
  ON p.bucket = g.bucket AND g.expand AND p.node = i.node
LEFT JOIN "anonsql_work_RUN"."sa_ancestors" AS a
  ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
WHERE
  g.done;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."items_next" AS
SELECT
  i.person,
  i.leaf,
  COALESCE(a.node_id, i.node) AS node
FROM "anonsql_work_RUN"."items" AS i
JOIN "anonsql_work_RUN"."fp_assign" AS g
  ON g.person = i.person
LEFT JOIN "anonsql_work_RUN"."fp_pick" AS p
  ON p.bucket = g.bucket AND g.expand AND p.node = i.node
LEFT JOIN "anonsql_work_RUN"."sa_ancestors" AS a
  ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
WHERE
  NOT g.done;

INSERT INTO "anonsql_work_RUN"."fp_done_members"
SELECT
  person,
  new_bucket
FROM "anonsql_work_RUN"."fp_assign"
WHERE
  done;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_members_next" AS
SELECT
  person,
  new_bucket AS bucket
FROM "anonsql_work_RUN"."fp_assign"
WHERE
  NOT done;

DROP TABLE "anonsql_work_RUN"."items";

ALTER TABLE "anonsql_work_RUN"."items_next"
RENAME TO "items";

DROP TABLE "anonsql_work_RUN"."fp_members";

ALTER TABLE "anonsql_work_RUN"."fp_members_next"
RENAME TO "fp_members";

DROP TABLE "anonsql_work_RUN"."fp_assign";

ANALYZE "anonsql_work_RUN"."items";

ANALYZE "anonsql_work_RUN"."fp_members";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_pick";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_subsets";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_decisions";

SELECT
  COUNT(*)
FROM "anonsql_work_RUN"."fp_members" AS r;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_pick" AS
SELECT
  bucket,
  node,
  depth
FROM (
  SELECT
    m.bucket,
    i.node,
    h.depth,
    ROW_NUMBER() OVER (
      PARTITION BY m.bucket
      ORDER BY COUNT(*) * MAX(h.leaf_count) DESC NULLS LAST, i.node
    ) AS choice
  FROM "anonsql_work_RUN"."items" AS i
  JOIN "anonsql_work_RUN"."fp_members" AS m
    ON m.person = i.person
  JOIN "anonsql_work_RUN"."sa_nodes" AS h
    ON h.node_id = i.node
  WHERE
    h.leaf_count > 1
    AND NOT EXISTS(
      SELECT
        1
      FROM "anonsql_work_RUN"."fp_tried" AS t
      WHERE
        t.bucket = m.bucket AND t.node = i.node
    )
  GROUP BY
    m.bucket,
    i.node,
    h.depth
) AS ranked
WHERE
  choice = 1;

INSERT INTO "anonsql_work_RUN"."fp_tried"
SELECT
  bucket,
  node
FROM "anonsql_work_RUN"."fp_pick";

ANALYZE "anonsql_work_RUN"."fp_pick";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_subsets" AS
SELECT
  person,
  bucket,
  CAST(SUM(CAST(1 AS BIGINT) << child) AS BIGINT) AS subset,
  CAST(SUM(n) AS BIGINT) AS ig
FROM (
  SELECT
    m.person,
    m.bucket,
    a."ordinal" AS child,
    COUNT(*) AS n
  FROM "anonsql_work_RUN"."items" AS i
  JOIN "anonsql_work_RUN"."fp_members" AS m
    ON m.person = i.person
  JOIN "anonsql_work_RUN"."fp_pick" AS p
    ON p.bucket = m.bucket AND p.node = i.node
  JOIN "anonsql_work_RUN"."sa_ancestors" AS a
    ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
  GROUP BY
    m.person,
    m.bucket,
    a."ordinal"
) AS children
GROUP BY
  person,
  bucket;

ANALYZE "anonsql_work_RUN"."fp_subsets";

SELECT
  bucket,
  subset,
  COUNT(*) AS n,
  CAST(SUM(ig) AS BIGINT) AS ig
FROM "anonsql_work_RUN"."fp_subsets"
GROUP BY
  bucket,
  subset
ORDER BY
  bucket,
  subset;

CREATE TABLE "anonsql_work_RUN"."fp_decisions" (
  "bucket" BIGINT,
  "subset" BIGINT,
  "target" BIGINT,
  "moved" BIGINT,
  "expand" BOOLEAN
);

COPY "anonsql_work_RUN"."fp_decisions" (
  "bucket",
  "subset",
  "target",
  "moved",
  "expand"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."fp_decisions";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_assign" AS
SELECT
  s.person,
  s.bucket,
  CASE WHEN s.seq <= d.moved THEN s.bucket ELSE d.target END AS new_bucket,
  CASE WHEN s.seq <= d.moved THEN FALSE ELSE d.expand END AS expand,
  FALSE AS done
FROM (
  SELECT
    person,
    bucket,
    subset,
    ROW_NUMBER() OVER (PARTITION BY bucket, subset ORDER BY ig, person) AS seq
  FROM "anonsql_work_RUN"."fp_subsets"
) AS s
JOIN "anonsql_work_RUN"."fp_decisions" AS d
  ON d.bucket = s.bucket AND d.subset = s.subset
UNION ALL
SELECT
  m.person,
  m.bucket,
  m.bucket AS new_bucket,
  FALSE AS expand,
  TRUE AS done
FROM "anonsql_work_RUN"."fp_members" AS m
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM "anonsql_work_RUN"."fp_pick" AS p
    WHERE
      p.bucket = m.bucket
  );

INSERT INTO "anonsql_work_RUN"."fp_done_items"
SELECT
  i.person,
  i.leaf,
  COALESCE(a.node_id, i.node) AS node
FROM "anonsql_work_RUN"."items" AS i
JOIN "anonsql_work_RUN"."fp_assign" AS g
  ON g.person = i.person
LEFT JOIN "anonsql_work_RUN"."fp_pick" AS p
  ON p.bucket = g.bucket AND g.expand AND p.node = i.node
LEFT JOIN "anonsql_work_RUN"."sa_ancestors" AS a
  ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
WHERE
  g.done;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."items_next" AS
SELECT
  i.person,
  i.leaf,
  COALESCE(a.node_id, i.node) AS node
FROM "anonsql_work_RUN"."items" AS i
JOIN "anonsql_work_RUN"."fp_assign" AS g
  ON g.person = i.person
LEFT JOIN "anonsql_work_RUN"."fp_pick" AS p
  ON p.bucket = g.bucket AND g.expand AND p.node = i.node
LEFT JOIN "anonsql_work_RUN"."sa_ancestors" AS a
  ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
WHERE
  NOT g.done;

INSERT INTO "anonsql_work_RUN"."fp_done_members"
SELECT
  person,
  new_bucket
FROM "anonsql_work_RUN"."fp_assign"
WHERE
  done;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_members_next" AS
SELECT
  person,
  new_bucket AS bucket
FROM "anonsql_work_RUN"."fp_assign"
WHERE
  NOT done;

DROP TABLE "anonsql_work_RUN"."items";

ALTER TABLE "anonsql_work_RUN"."items_next"
RENAME TO "items";

DROP TABLE "anonsql_work_RUN"."fp_members";

ALTER TABLE "anonsql_work_RUN"."fp_members_next"
RENAME TO "fp_members";

DROP TABLE "anonsql_work_RUN"."fp_assign";

ANALYZE "anonsql_work_RUN"."items";

ANALYZE "anonsql_work_RUN"."fp_members";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_pick";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_subsets";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_decisions";

SELECT
  COUNT(*)
FROM "anonsql_work_RUN"."fp_members" AS r;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_pick" AS
SELECT
  bucket,
  node,
  depth
FROM (
  SELECT
    m.bucket,
    i.node,
    h.depth,
    ROW_NUMBER() OVER (
      PARTITION BY m.bucket
      ORDER BY COUNT(*) * MAX(h.leaf_count) DESC NULLS LAST, i.node
    ) AS choice
  FROM "anonsql_work_RUN"."items" AS i
  JOIN "anonsql_work_RUN"."fp_members" AS m
    ON m.person = i.person
  JOIN "anonsql_work_RUN"."sa_nodes" AS h
    ON h.node_id = i.node
  WHERE
    h.leaf_count > 1
    AND NOT EXISTS(
      SELECT
        1
      FROM "anonsql_work_RUN"."fp_tried" AS t
      WHERE
        t.bucket = m.bucket AND t.node = i.node
    )
  GROUP BY
    m.bucket,
    i.node,
    h.depth
) AS ranked
WHERE
  choice = 1;

INSERT INTO "anonsql_work_RUN"."fp_tried"
SELECT
  bucket,
  node
FROM "anonsql_work_RUN"."fp_pick";

ANALYZE "anonsql_work_RUN"."fp_pick";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_subsets" AS
SELECT
  person,
  bucket,
  CAST(SUM(CAST(1 AS BIGINT) << child) AS BIGINT) AS subset,
  CAST(SUM(n) AS BIGINT) AS ig
FROM (
  SELECT
    m.person,
    m.bucket,
    a."ordinal" AS child,
    COUNT(*) AS n
  FROM "anonsql_work_RUN"."items" AS i
  JOIN "anonsql_work_RUN"."fp_members" AS m
    ON m.person = i.person
  JOIN "anonsql_work_RUN"."fp_pick" AS p
    ON p.bucket = m.bucket AND p.node = i.node
  JOIN "anonsql_work_RUN"."sa_ancestors" AS a
    ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
  GROUP BY
    m.person,
    m.bucket,
    a."ordinal"
) AS children
GROUP BY
  person,
  bucket;

ANALYZE "anonsql_work_RUN"."fp_subsets";

SELECT
  bucket,
  subset,
  COUNT(*) AS n,
  CAST(SUM(ig) AS BIGINT) AS ig
FROM "anonsql_work_RUN"."fp_subsets"
GROUP BY
  bucket,
  subset
ORDER BY
  bucket,
  subset;

CREATE TABLE "anonsql_work_RUN"."fp_decisions" (
  "bucket" BIGINT,
  "subset" BIGINT,
  "target" BIGINT,
  "moved" BIGINT,
  "expand" BOOLEAN
);

COPY "anonsql_work_RUN"."fp_decisions" (
  "bucket",
  "subset",
  "target",
  "moved",
  "expand"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anonsql_work_RUN"."fp_decisions";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_assign" AS
SELECT
  s.person,
  s.bucket,
  CASE WHEN s.seq <= d.moved THEN s.bucket ELSE d.target END AS new_bucket,
  CASE WHEN s.seq <= d.moved THEN FALSE ELSE d.expand END AS expand,
  FALSE AS done
FROM (
  SELECT
    person,
    bucket,
    subset,
    ROW_NUMBER() OVER (PARTITION BY bucket, subset ORDER BY ig, person) AS seq
  FROM "anonsql_work_RUN"."fp_subsets"
) AS s
JOIN "anonsql_work_RUN"."fp_decisions" AS d
  ON d.bucket = s.bucket AND d.subset = s.subset
UNION ALL
SELECT
  m.person,
  m.bucket,
  m.bucket AS new_bucket,
  FALSE AS expand,
  TRUE AS done
FROM "anonsql_work_RUN"."fp_members" AS m
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM "anonsql_work_RUN"."fp_pick" AS p
    WHERE
      p.bucket = m.bucket
  );

INSERT INTO "anonsql_work_RUN"."fp_done_items"
SELECT
  i.person,
  i.leaf,
  COALESCE(a.node_id, i.node) AS node
FROM "anonsql_work_RUN"."items" AS i
JOIN "anonsql_work_RUN"."fp_assign" AS g
  ON g.person = i.person
LEFT JOIN "anonsql_work_RUN"."fp_pick" AS p
  ON p.bucket = g.bucket AND g.expand AND p.node = i.node
LEFT JOIN "anonsql_work_RUN"."sa_ancestors" AS a
  ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
WHERE
  g.done;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."items_next" AS
SELECT
  i.person,
  i.leaf,
  COALESCE(a.node_id, i.node) AS node
FROM "anonsql_work_RUN"."items" AS i
JOIN "anonsql_work_RUN"."fp_assign" AS g
  ON g.person = i.person
LEFT JOIN "anonsql_work_RUN"."fp_pick" AS p
  ON p.bucket = g.bucket AND g.expand AND p.node = i.node
LEFT JOIN "anonsql_work_RUN"."sa_ancestors" AS a
  ON a.leaf_rank = i.leaf AND a.depth = p.depth + 1
WHERE
  NOT g.done;

INSERT INTO "anonsql_work_RUN"."fp_done_members"
SELECT
  person,
  new_bucket
FROM "anonsql_work_RUN"."fp_assign"
WHERE
  done;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_members_next" AS
SELECT
  person,
  new_bucket AS bucket
FROM "anonsql_work_RUN"."fp_assign"
WHERE
  NOT done;

DROP TABLE "anonsql_work_RUN"."items";

ALTER TABLE "anonsql_work_RUN"."items_next"
RENAME TO "items";

DROP TABLE "anonsql_work_RUN"."fp_members";

ALTER TABLE "anonsql_work_RUN"."fp_members_next"
RENAME TO "fp_members";

DROP TABLE "anonsql_work_RUN"."fp_assign";

ANALYZE "anonsql_work_RUN"."items";

ANALYZE "anonsql_work_RUN"."fp_members";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_pick";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_subsets";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_decisions";

SELECT
  COUNT(*)
FROM "anonsql_work_RUN"."fp_members" AS r;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fp_bucket_map" AS
WITH cuts AS (
  SELECT
    bucket,
    STRING_AGG(CAST(node AS TEXT), ','
    ORDER BY
      node) AS cut
  FROM (
    SELECT DISTINCT
      m.bucket,
      i.node
    FROM "anonsql_work_RUN"."fp_done_items" AS i
    JOIN "anonsql_work_RUN"."fp_done_members" AS m
      ON m.person = i.person
  ) AS bucket_nodes
  GROUP BY
    bucket
), firsts AS (
  SELECT
    c.cut,
    MIN(m.person) AS first_person
  FROM cuts AS c
  JOIN "anonsql_work_RUN"."fp_done_members" AS m
    ON m.bucket = c.bucket
  GROUP BY
    c.cut
)
SELECT
  c.bucket,
  CAST(DENSE_RANK() OVER (ORDER BY f.first_person) - 1 AS INT) AS safb
FROM cuts AS c
JOIN firsts AS f
  ON f.cut = c.cut;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."person_buckets" AS
SELECT
  m.person,
  b.safb
FROM "anonsql_work_RUN"."fp_done_members" AS m
JOIN "anonsql_work_RUN"."fp_bucket_map" AS b
  ON b.bucket = m.bucket;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fingerprints" AS
SELECT DISTINCT
  b.safb,
  i.node
FROM "anonsql_work_RUN"."fp_done_items" AS i
JOIN "anonsql_work_RUN"."fp_done_members" AS m
  ON m.person = i.person
JOIN "anonsql_work_RUN"."fp_bucket_map" AS b
  ON b.bucket = m.bucket;

DROP TABLE "anonsql_work_RUN"."items";

ALTER TABLE "anonsql_work_RUN"."fp_done_items"
RENAME TO "items";

SELECT
  safb,
  COUNT(*) AS persons
FROM "anonsql_work_RUN"."person_buckets"
GROUP BY
  safb
ORDER BY
  safb;

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_members";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_done_members";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_tried";

DROP TABLE IF EXISTS "anonsql_work_RUN"."fp_bucket_map";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."rows" AS
SELECT
  CAST(0 AS BIGINT) AS pid,
  p."q0",
  p."q1",
  p."q2",
  b.safb AS "s0",
  p.person
FROM "anonsql_work_RUN"."persons" AS p
JOIN "anonsql_work_RUN"."person_buckets" AS b
  ON b.person = p.person;

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
  MIN(w."q1") AS "min1",
  MAX(w."q1") AS "max1",
  MIN(w."q2") AS "min2",
  MAX(w."q2") AS "max2"
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
  "p0" INT,
  "t1" BOOLEAN,
  "p1" INT,
  "t2" BOOLEAN,
  "p2" INT
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
  ON a.dim = 0 AND a.leaf_rank = w."q0" AND a.depth = p."p0" + 1
WHERE
  p."t0"
GROUP BY
  w.pid,
  a.node_id
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
  ON a.dim = 2 AND a.leaf_rank = w."q2" AND a.depth = p."p2" + 1
WHERE
  p."t2"
GROUP BY
  w.pid,
  a.node_id;

SELECT
  w.pid AS pid,
  0 AS dim,
  a.node_id AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 0 AND a.leaf_rank = w."q0" AND a.depth = p."p0" + 1
WHERE
  p."t0"
GROUP BY
  w.pid,
  a.node_id,
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
  a.node_id AS bin,
  w."s0" AS sa,
  COUNT(*) AS n
FROM "anonsql_work_RUN"."rows" AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = 2 AND a.leaf_rank = w."q2" AND a.depth = p."p2" + 1
WHERE
  p."t2"
GROUP BY
  w.pid,
  a.node_id,
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
  w."s0",
  w."person"
FROM (
  SELECT
    w.*,
    s.dim AS split_dim,
    s.depth AS split_depth,
    CASE s.dim WHEN 0 THEN w."q0" WHEN 1 THEN w."q1" WHEN 2 THEN w."q2" END AS split_leaf
  FROM "anonsql_work_RUN"."rows" AS w
  JOIN "anonsql_work_RUN"."split" AS s
    ON s.pid = w.pid
) AS w
JOIN "anonsql_work_RUN"."pstate" AS p
  ON p.pid = w.pid
LEFT JOIN "anonsql_work_RUN"."ancestors" AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
JOIN "anonsql_work_RUN"."decisions" AS d
  ON d.pid = w.pid AND d.bin = a.node_id
UNION ALL
SELECT
  w.pid,
  w."q0",
  w."q1",
  w."q2",
  w."s0",
  w."person"
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
  MIN(w."q1") AS "min1",
  MAX(w."q1") AS "max1",
  MIN(w."q2") AS "min2",
  MAX(w."q2") AS "max2"
FROM "anonsql_work_RUN"."rows" AS w
WHERE
  w.pid >= 1 AND w.pid < 20001
GROUP BY
  w.pid
ORDER BY
  w.pid;

INSERT INTO "anonsql_work_RUN"."done"
SELECT
  *
FROM "anonsql_work_RUN"."rows"
WHERE
  pid >= 1 AND pid < 20001;

DELETE FROM "anonsql_work_RUN"."rows"
WHERE
  pid >= 1 AND pid < 20001;

SELECT
  MIN(pid),
  COUNT(*)
FROM "anonsql_work_RUN"."rows";

CREATE TABLE "anonsql_work_RUN"."parts" (
  "pid" BIGINT,
  "n" BIGINT,
  "suppressed" BOOLEAN,
  "node0" INT,
  "node1" INT,
  "node2" INT
);

COPY "anonsql_work_RUN"."parts" (
  "pid",
  "n",
  "suppressed",
  "node0",
  "node1",
  "node2"
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
  "h0".label AS "g0",
  "h1".label AS "g1",
  "h2".label AS "g2"
FROM "anonsql_work_RUN"."parts" AS p
JOIN "anonsql_work_RUN"."nodes0" AS "h0"
  ON "h0".node_id = p."node0"
JOIN "anonsql_work_RUN"."nodes1" AS "h1"
  ON "h1".node_id = p."node1"
JOIN "anonsql_work_RUN"."nodes2" AS "h2"
  ON "h2".node_id = p."node2";

CREATE UNLOGGED TABLE "anonsql_work_RUN"."person_map" AS
SELECT
  person_id,
  CAST(ROW_NUMBER() OVER (ORDER BY draw) AS BIGINT) AS person,
  pid,
  safb,
  "g0",
  "g1",
  "g2"
FROM (
  SELECT
    p.person_id,
    RANDOM() AS draw,
    r.pid,
    r."s0" AS safb,
    g."g0",
    g."g1",
    g."g2"
  FROM "anonsql_work_RUN"."rows" AS r
  JOIN "anonsql_work_RUN"."persons" AS p
    ON p.person = r.person
  JOIN "anonsql_work_RUN"."generalized" AS g
    ON g.pid = r.pid
) AS drawn;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."item_map" AS
SELECT DISTINCT
  b.safb,
  l.value AS item,
  n.label
FROM "anonsql_work_RUN"."items" AS i
JOIN "anonsql_work_RUN"."person_buckets" AS b
  ON b.person = i.person
JOIN "anonsql_work_RUN"."sa_nodes" AS n
  ON n.node_id = i.node
JOIN "anonsql_work_RUN"."sa_leaves" AS l
  ON l.leaf_rank = i.leaf;

CREATE UNLOGGED TABLE "anonsql_work_RUN"."fingerprints_pub" AS
WITH covered AS (
  SELECT
    b.safb,
    i.node,
    COUNT(*) AS items
  FROM "anonsql_work_RUN"."items" AS i
  JOIN "anonsql_work_RUN"."person_buckets" AS b
    ON b.person = i.person
  GROUP BY
    b.safb,
    i.node
), sizes AS (
  SELECT
    safb,
    COUNT(*) AS persons
  FROM "anonsql_work_RUN"."person_buckets"
  GROUP BY
    safb
)
SELECT
  f.safb,
  n.label,
  n.depth,
  n.first_leaf,
  n.last_leaf,
  n.ncp,
  CAST(s.persons AS BIGINT) AS persons,
  CAST(c.items AS BIGINT) AS items
FROM "anonsql_work_RUN"."fingerprints" AS f
JOIN "anonsql_work_RUN"."sa_nodes" AS n
  ON n.node_id = f.node
JOIN sizes AS s
  ON s.safb = f.safb
JOIN covered AS c
  ON c.safb = f.safb AND c.node = f.node;

DROP TABLE IF EXISTS "anonsql_work_RUN"."fingerprints";

ALTER TABLE "anonsql_work_RUN"."fingerprints_pub"
RENAME TO "fingerprints";

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
    table_schema = 'anon' AND table_name IN ('visits')
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
      'visits__by_person',
      'visits',
      'visits__classes',
      'visits__certificate',
      'visits__metrics',
      'visits__fingerprints',
      'visits__groups',
      'visits__group_values',
      'visits__buckets',
      'visits__group_buckets',
      'visits__sa_taxonomy',
      'visits__recoding',
      'visits__attributes',
      'visits__hierarchy_nodes',
      'visits__person_map',
      'visits__item_map',
      'visits__source',
      'visits__released',
      'visits__released_by_person',
      'visits__population'
    )
  )
  OR (
    table_schema = 'anon_private'
    AND table_name IN (
      'visits__released_by_person',
      'visits__released',
      'visits__source',
      'visits__recoding',
      'visits__attributes',
      'visits__hierarchy_nodes',
      'visits__person_map',
      'visits__item_map',
      'visits__population'
    )
  );

CREATE TABLE "anon_private"."visits__person_map" AS
SELECT
  *
FROM "anonsql_work_RUN"."person_map";

ANALYZE "anon_private"."visits__person_map";

CREATE TABLE "anon_private"."visits__item_map" AS
SELECT
  *
FROM "anonsql_work_RUN"."item_map";

ANALYZE "anon_private"."visits__item_map";

CREATE TABLE "anon"."visits__fingerprints" AS
SELECT
  *
FROM "anonsql_work_RUN"."fingerprints";

ANALYZE "anon"."visits__fingerprints";

CREATE TABLE "anon_private"."visits__attributes" AS
SELECT
  *
FROM "anonsql_work_RUN"."attributes";

ANALYZE "anon_private"."visits__attributes";

CREATE TABLE "anon_private"."visits__hierarchy_nodes" AS
SELECT
  *
FROM "anonsql_work_RUN"."hierarchy_nodes";

ANALYZE "anon_private"."visits__hierarchy_nodes";

CREATE VIEW "anon_private"."visits__source" AS
SELECT
  *
FROM "main"."visits" AS s;

CREATE VIEW "anon_private"."visits__released" AS
SELECT
  m.person AS "pid",
  m."g0" AS "age",
  m."g1" AS "gender",
  m."g2" AS "zip",
  f.label AS "disease"
FROM "main"."visits" AS s
JOIN "anon_private"."visits__person_map" AS m
  ON m.person_id = s."pid"
JOIN "anon_private"."visits__item_map" AS f
  ON f.safb = m.safb AND f.item = CAST(s."disease" AS TEXT);

SET "max_parallel_workers_per_gather" = 1;

CREATE TABLE "anon"."visits" AS
SELECT
  *
FROM "anon_private"."visits__released";

SET "max_parallel_workers_per_gather" = 2;

CREATE VIEW "anon_private"."visits__released_by_person" AS
SELECT
  m.person AS "pid",
  m."g0" AS "age",
  m."g1" AS "gender",
  m."g2" AS "zip",
  fp.items AS "disease"
FROM "anon_private"."visits__person_map" AS m
JOIN (
  SELECT DISTINCT
    "pid" AS person
  FROM "anon"."visits"
) AS p
  ON p.person = m.person
JOIN (
  SELECT
    safb,
    ARRAY_AGG(label ORDER BY first_leaf) AS items
  FROM "anon"."visits__fingerprints"
  GROUP BY
    safb
) AS fp
  ON fp.safb = m.safb;

SET "max_parallel_workers_per_gather" = 1;

CREATE TABLE "anon"."visits__by_person" AS
SELECT
  *
FROM "anon_private"."visits__released_by_person";

SET "max_parallel_workers_per_gather" = 2;

CREATE TABLE "anon"."visits__classes" AS
SELECT
  "age",
  "gender",
  "zip",
  COUNT(*) AS class_size,
  COUNT(DISTINCT "disease") AS "distinct disease"
FROM "anon"."visits__by_person"
GROUP BY
  "age",
  "gender",
  "zip";

SELECT
  COUNT(*)
FROM (
  WITH members AS (
    SELECT DISTINCT
      "pid" AS person,
      "age" AS "q0",
      "gender" AS "q1",
      "zip" AS "q2"
    FROM "anon"."visits" AS r
  ), fingerprints AS (
    SELECT
      person,
      ARRAY_AGG(item ORDER BY item) AS fp
    FROM (
      SELECT DISTINCT
        "pid" AS person,
        "disease" AS item
      FROM "anon"."visits" AS r
    ) AS items
    GROUP BY
      person
  ), cells AS (
    SELECT
      "q0",
      "q1",
      "q2",
      f.fp,
      COUNT(*) AS n
    FROM members AS m
    JOIN fingerprints AS f
      ON f.person = m.person
    GROUP BY
      "q0",
      "q1",
      "q2",
      f.fp
  ), fingerprint_classes AS (
    SELECT
      "q0",
      "q1",
      "q2",
      CAST(SUM(n) AS BIGINT) AS class_persons,
      MAX(n) AS top_persons,
      COUNT(*) AS fingerprints
    FROM cells
    GROUP BY
      "q0",
      "q1",
      "q2"
  ), buckets AS (
    SELECT
      fp,
      COUNT(*) AS persons
    FROM fingerprints
    GROUP BY
      fp
  )
  SELECT
    'fingerprint bucket' AS violation,
    persons
  FROM buckets
  WHERE
    persons < 2
  UNION ALL
  SELECT
    'class' AS violation,
    class_persons AS persons
  FROM fingerprint_classes
  WHERE
    top_persons * 3 > class_persons
) AS v;

SELECT
  COUNT(*)
FROM (
  WITH members AS (
    SELECT DISTINCT
      "pid" AS person,
      "age" AS "q0",
      "gender" AS "q1",
      "zip" AS "q2"
    FROM "anon"."visits" AS r
  )
  SELECT
    person,
    COUNT(*) AS qid_vectors
  FROM members
  GROUP BY
    person
  HAVING
    COUNT(*) > 1
) AS v;

SELECT
  COUNT(*)
FROM (
  WITH people AS (
    SELECT
      ROW_NUMBER() OVER () AS person,
      "age" AS "q0",
      "gender" AS "q1",
      "zip" AS "q2",
      "disease" AS fp
    FROM "anon"."visits__by_person" AS r
  ), members AS (
    SELECT
      person,
      "q0",
      "q1",
      "q2"
    FROM people
  ), fingerprints AS (
    SELECT
      person,
      fp
    FROM people
  ), cells AS (
    SELECT
      "q0",
      "q1",
      "q2",
      f.fp,
      COUNT(*) AS n
    FROM members AS m
    JOIN fingerprints AS f
      ON f.person = m.person
    GROUP BY
      "q0",
      "q1",
      "q2",
      f.fp
  ), fingerprint_classes AS (
    SELECT
      "q0",
      "q1",
      "q2",
      CAST(SUM(n) AS BIGINT) AS class_persons,
      MAX(n) AS top_persons,
      COUNT(*) AS fingerprints
    FROM cells
    GROUP BY
      "q0",
      "q1",
      "q2"
  ), buckets AS (
    SELECT
      fp,
      COUNT(*) AS persons
    FROM fingerprints
    GROUP BY
      fp
  )
  SELECT
    'fingerprint bucket' AS violation,
    persons
  FROM buckets
  WHERE
    persons < 2
  UNION ALL
  SELECT
    'class' AS violation,
    class_persons AS persons
  FROM fingerprint_classes
  WHERE
    top_persons * 3 > class_persons
) AS v;

SELECT
  COUNT(*)
FROM "anon"."visits" AS r;

SELECT
  COALESCE(SUM(class_size), 0) AS n
FROM "anon"."visits__classes" AS c;

SELECT
  column_name,
  data_type
FROM information_schema.columns
WHERE
  table_schema = 'anon' AND table_name = 'visits__by_person'
ORDER BY
  ordinal_position;

WITH cells AS (
  SELECT
    "age" AS "k0",
    "gender" AS "k1",
    "zip" AS "k2",
    "disease" AS "a0",
    CAST(COUNT(*) AS BIGINT) AS n
  FROM "anon"."visits__by_person" AS r
  GROUP BY
    "age",
    "gender",
    "zip",
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

SELECT
  CAST(COUNT(*) AS BIGINT) AS groups,
  CAST(COALESCE(SUM(CASE WHEN g.n = 1 THEN 1 ELSE 0 END), 0) AS BIGINT) AS isolated,
  CAST(COALESCE(MIN(g.n), 0) AS BIGINT) AS smallest,
  CAST(COALESCE(SUM(g.n), 0) AS BIGINT) AS rows
FROM (
  SELECT
    "age" AS "k0",
    "gender" AS "k1",
    "zip" AS "k2",
    CAST(COUNT(*) AS BIGINT) AS n
  FROM "anon"."visits__by_person" AS r
  GROUP BY
    "age",
    "gender",
    "zip"
) AS g;

SELECT
  COUNT(*) AS classes,
  SUM(class_size) AS published,
  SUM(class_size * class_size) AS squares
FROM "anon"."visits__classes" AS c;

SELECT
  COALESCE(SUM(r.class_size), 0) AS published,
  SUM(
    CASE
      WHEN NOT "h0".label IS NULL
      THEN r.class_size * "h0".ncp
      WHEN SUBSTRING(CAST(r."age" AS TEXT) FROM 1 FOR 1) = '{'
      AND (
        LENGTH(CAST(r."age" AS TEXT)) - LENGTH(REPLACE(CAST(r."age" AS TEXT), ',', '')) + 1
      ) > 1
      THEN CAST(r.class_size * CAST((
        LENGTH(CAST(r."age" AS TEXT)) - LENGTH(REPLACE(CAST(r."age" AS TEXT), ',', '')) + 1
      ) AS DOUBLE PRECISION) AS DOUBLE PRECISION) / 100
      ELSE 0
    END
  ) AS "penalty0",
  SUM(
    CASE
      WHEN "h0".label IS NULL AND NOT SUBSTRING(CAST(r."age" AS TEXT) FROM 1 FOR 1) = '{'
      THEN r.class_size
      ELSE 0
    END
  ) AS "unmatched0",
  SUM(
    CASE
      WHEN NOT "h1".label IS NULL
      THEN r.class_size * "h1".ncp
      WHEN SUBSTRING(CAST(r."gender" AS TEXT) FROM 1 FOR 1) = '{'
      AND (
        LENGTH(CAST(r."gender" AS TEXT)) - LENGTH(REPLACE(CAST(r."gender" AS TEXT), ',', '')) + 1
      ) > 1
      THEN CAST(r.class_size * CAST((
        LENGTH(CAST(r."gender" AS TEXT)) - LENGTH(REPLACE(CAST(r."gender" AS TEXT), ',', '')) + 1
      ) AS DOUBLE PRECISION) AS DOUBLE PRECISION) / 2
      ELSE 0
    END
  ) AS "penalty1",
  SUM(
    CASE
      WHEN "h1".label IS NULL AND NOT SUBSTRING(CAST(r."gender" AS TEXT) FROM 1 FOR 1) = '{'
      THEN r.class_size
      ELSE 0
    END
  ) AS "unmatched1",
  SUM(
    CASE
      WHEN NOT "h2".label IS NULL
      THEN r.class_size * "h2".ncp
      WHEN SUBSTRING(CAST(r."zip" AS TEXT) FROM 1 FOR 1) = '{'
      AND (
        LENGTH(CAST(r."zip" AS TEXT)) - LENGTH(REPLACE(CAST(r."zip" AS TEXT), ',', '')) + 1
      ) > 1
      THEN CAST(r.class_size * CAST((
        LENGTH(CAST(r."zip" AS TEXT)) - LENGTH(REPLACE(CAST(r."zip" AS TEXT), ',', '')) + 1
      ) AS DOUBLE PRECISION) AS DOUBLE PRECISION) / 20000
      ELSE 0
    END
  ) AS "penalty2",
  SUM(
    CASE
      WHEN "h2".label IS NULL AND NOT SUBSTRING(CAST(r."zip" AS TEXT) FROM 1 FOR 1) = '{'
      THEN r.class_size
      ELSE 0
    END
  ) AS "unmatched2"
FROM "anon"."visits__classes" AS r
LEFT JOIN "anon_private"."visits__hierarchy_nodes" AS "h0"
  ON "h0".attribute = 'age' AND "h0".label = CAST(r."age" AS TEXT)
LEFT JOIN "anon_private"."visits__hierarchy_nodes" AS "h1"
  ON "h1".attribute = 'gender' AND "h1".label = CAST(r."gender" AS TEXT)
LEFT JOIN "anon_private"."visits__hierarchy_nodes" AS "h2"
  ON "h2".attribute = 'zip' AND "h2".label = CAST(r."zip" AS TEXT);

SELECT
  class_size,
  CAST(COUNT(*) AS BIGINT) AS classes
FROM "anon"."visits__classes" AS c
GROUP BY
  class_size
ORDER BY
  class_size;

SELECT
  SUM(items * ncp) AS penalty,
  SUM(items) AS items
FROM "anon"."visits__fingerprints";

CREATE TABLE "anon"."visits__metrics" (
  "metric" TEXT,
  "attribute" TEXT,
  "value" DOUBLE PRECISION
);

COPY "anon"."visits__metrics" (
  "metric",
  "attribute",
  "value"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anon"."visits__metrics";

WITH class_rows AS (
  SELECT
    CAST(COUNT(*) AS BIGINT) AS n
  FROM "anonsql_work_RUN"."persons" AS r
  GROUP BY
    "q0",
    "q1",
    "q2"
)
SELECT
  n AS class_size,
  CAST(COUNT(*) AS BIGINT) AS classes
FROM class_rows
GROUP BY
  n
ORDER BY
  n;

CREATE TABLE "anon"."visits__certificate" (
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
  "person_level" TEXT
);

COPY "anon"."visits__certificate" (
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
  "person_level"
)
FROM STDIN WITH (
  FORMAT csv
);

ANALYZE "anon"."visits__certificate";

SELECT
  table_schema,
  table_name,
  table_type
FROM information_schema.tables
WHERE
  (
    table_schema = 'anon_private' AND table_name IN ('visits__versions')
  );

SELECT
  table_schema,
  table_name,
  table_type
FROM information_schema.tables
WHERE
  (
    table_schema = 'anon_private'
    AND table_name IN (
      'visits__version_rows',
      'visits__held',
      'visits__left_rows',
      'visits__version_groups',
      'visits__labels',
      'visits__history'
    )
  );

SELECT
  table_schema,
  table_name,
  table_type
FROM information_schema.tables
WHERE
  (
    table_schema = 'anon_private' AND table_name IN ('visits__versions')
  );

CREATE TABLE "anon_private"."visits__versions" (
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

SELECT
  column_name,
  data_type
FROM information_schema.columns
WHERE
  table_schema = 'anon_private' AND table_name = 'visits__source'
ORDER BY
  ordinal_position;

SELECT
  COUNT(*) AS n,
  COALESCE(
    SUM(
      HASHTEXTEXTENDED(CAST(ROW(r."name", r."pid", r."age", r."gender", r."zip", r."disease") AS TEXT), 0) % 1000000007
    ),
    0
  ) AS checksum
FROM "anon_private"."visits__source" AS r;

INSERT INTO "anon_private"."visits__versions"
VALUES
  (1, 'TIME', NULL, NULL, NULL, NULL, NULL, '10:-1830651213', 'SHA256', 'RUN');

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
