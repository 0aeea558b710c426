WITH class_rows AS (
  SELECT
    CAST(COUNT(*) AS BIGINT) AS n
  FROM "main"."sample" AS r
  GROUP BY
    "zip ""code""",
    "age"
)
SELECT
  n AS class_size,
  CAST(COUNT(*) AS BIGINT) AS classes
FROM class_rows
GROUP BY
  n
ORDER BY
  n;

SELECT
  column_name,
  data_type
FROM information_schema.columns
WHERE
  table_schema = 'main' AND table_name = 'population'
ORDER BY
  ordinal_position;

WITH stacked AS (
  SELECT
    "zip ""code""" AS "q0",
    "age" AS "q1",
    1 AS in_sample,
    CAST(0 AS DOUBLE PRECISION) AS in_population
  FROM "main"."sample" AS r
  UNION ALL
  SELECT
    "zip ""code""" AS "q0",
    "age" AS "q1",
    0 AS in_sample,
    CAST("n" AS DOUBLE PRECISION) AS in_population
  FROM "main"."population"
), matched AS (
  SELECT
    "q0",
    "q1",
    CAST(SUM(in_sample) AS BIGINT) AS class_size,
    CAST(COALESCE(SUM(in_population), 0) AS DOUBLE PRECISION) AS population_size
  FROM stacked
  GROUP BY
    "q0",
    "q1"
)
SELECT
  class_size,
  population_size,
  CAST(COUNT(*) AS BIGINT) AS classes
FROM matched
WHERE
  class_size > 0
GROUP BY
  class_size,
  population_size
ORDER BY
  class_size,
  population_size;

SELECT
  CAST(SUM("n") AS DOUBLE PRECISION) AS persons
FROM "main"."population";

WITH weighted AS (
  SELECT
    CAST(COUNT(*) AS BIGINT) AS class_size,
    CAST(SUM("w") AS DOUBLE PRECISION) AS population_size
  FROM "main"."sample" AS r
  GROUP BY
    "zip ""code""",
    "age"
)
SELECT
  class_size,
  population_size,
  CAST(COUNT(*) AS BIGINT) AS classes
FROM weighted
GROUP BY
  class_size,
  population_size
ORDER BY
  class_size,
  population_size;

WITH class_rows AS (
  SELECT
    CAST(COUNT(*) AS BIGINT) AS n
  FROM "main"."sample" AS r
  GROUP BY
    "zip ""code""",
    "age"
)
SELECT
  n AS class_size,
  CAST(COUNT(*) AS BIGINT) AS classes
FROM class_rows
GROUP BY
  n
ORDER BY
  n;

WITH stacked AS (
  SELECT
    "zip ""code""" AS "q0",
    "age" AS "q1",
    1 AS in_sample,
    CAST(0 AS DOUBLE PRECISION) AS in_population
  FROM "main"."sample" AS r
  UNION ALL
  SELECT
    "zip ""code""" AS "q0",
    "age" AS "q1",
    0 AS in_sample,
    CAST("n" AS DOUBLE PRECISION) AS in_population
  FROM "main"."population"
), matched AS (
  SELECT
    "q0",
    "q1",
    CAST(SUM(in_sample) AS BIGINT) AS class_size,
    CAST(COALESCE(SUM(in_population), 0) AS DOUBLE PRECISION) AS population_size
  FROM stacked
  GROUP BY
    "q0",
    "q1"
)
SELECT
  "q0" AS "zip ""code""",
  "q1" AS "age",
  class_size,
  population_size
FROM matched
WHERE
  class_size > 0 AND population_size < 5;

WITH class_rows AS (
  SELECT
    CAST(COUNT(*) AS BIGINT) AS n
  FROM "main"."sample" AS r
  GROUP BY
    "zip ""code""",
    "age"
), totals AS (
  SELECT
    CAST(COUNT(*) AS DOUBLE PRECISION) AS classes,
    CAST(SUM(n) AS DOUBLE PRECISION) AS records,
    CAST(SUM(CASE WHEN n < 5 THEN n ELSE 0 END) AS DOUBLE PRECISION) AS at_risk
  FROM class_rows
), figures AS (
  SELECT
    CAST(classes AS DOUBLE PRECISION) / records AS average_risk,
    CAST(at_risk AS DOUBLE PRECISION) / records AS records_at_risk
  FROM totals
  WHERE
    records > 0
)
SELECT
  average_risk,
  CAST(0.5 AS DOUBLE PRECISION) AS threshold,
  records_at_risk
FROM figures
WHERE
  average_risk > CAST(0.5 AS DOUBLE PRECISION) + CAST(1e-09 AS DOUBLE PRECISION)
  OR records_at_risk > CAST(0.1 AS DOUBLE PRECISION) + CAST(1e-09 AS DOUBLE PRECISION);

WITH class_rows AS (
  SELECT
    CAST(COUNT(*) AS BIGINT) AS n
  FROM "main"."sample" AS r
  GROUP BY
    "zip ""code""",
    "age"
), totals AS (
  SELECT
    CAST(SUM(CASE WHEN n = 1 THEN 1 ELSE 0 END) AS DOUBLE PRECISION) AS uniques,
    CAST(SUM(n) AS DOUBLE PRECISION) AS records
  FROM class_rows
)
SELECT
  CAST(uniques AS DOUBLE PRECISION) / records AS sample_uniqueness,
  CAST(0.1 AS DOUBLE PRECISION) AS threshold
FROM totals
WHERE
  records > 0
  AND CAST(uniques AS DOUBLE PRECISION) / records > CAST(0.1 AS DOUBLE PRECISION) + CAST(1e-09 AS DOUBLE PRECISION);

WITH class_rows AS (
  SELECT
    CAST(COUNT(*) AS BIGINT) AS n
  FROM "main"."sample" AS r
  GROUP BY
    "zip ""code""",
    "age"
)
SELECT
  n AS class_size,
  CAST(COUNT(*) AS BIGINT) AS classes
FROM class_rows
GROUP BY
  n
ORDER BY
  n;

WITH class_rows AS (
  SELECT
    CAST(COUNT(*) AS BIGINT) AS n
  FROM "main"."sample" AS r
  GROUP BY
    "zip ""code""",
    "age"
), observed AS (
  SELECT
    n AS class_size,
    CAST(COUNT(*) AS BIGINT) AS classes
  FROM class_rows
  GROUP BY
    n
), estimated AS (
  SELECT
    CAST(e.class_size AS BIGINT) AS class_size,
    CAST(e.classes AS BIGINT) AS classes
  FROM (VALUES
    (1, 2),
    (2, 1)) AS e(class_size, classes)
), changed AS (
  SELECT
    COUNT(*) AS sizes
  FROM observed
  FULL OUTER JOIN estimated
    ON observed.class_size = estimated.class_size
  WHERE
    observed.classes IS DISTINCT FROM estimated.classes
)
SELECT
  'dankar' AS estimator,
  CAST(NULL AS DOUBLE PRECISION) AS population_uniqueness,
  CAST(0.1 AS DOUBLE PRECISION) AS threshold,
  CAST(sizes AS BIGINT) AS changed_sizes
FROM changed
WHERE
  sizes > 0 OR TRUE;

WITH sa_rows AS (
  SELECT
    "zip ""code""" AS "q0",
    "age" AS "q1",
    "sa" AS sa
  FROM "main"."sample"
), sa_frequencies AS (
  SELECT
    "q0",
    "q1",
    sa,
    COUNT(*) AS n
  FROM sa_rows
  GROUP BY
    "q0",
    "q1",
    sa
), class_stats AS (
  SELECT
    "q0",
    "q1",
    CAST(SUM(n) AS BIGINT) AS class_size,
    CAST(MAX(n) AS BIGINT) AS top_count
  FROM sa_frequencies
  GROUP BY
    "q0",
    "q1"
)
SELECT
  "q0" AS "zip ""code""",
  "q1" AS "age",
  class_size,
  CAST(top_count AS DOUBLE PRECISION) / CAST(class_size AS DOUBLE PRECISION) AS top_share
FROM class_stats
WHERE
  class_size < 2
  OR CAST(top_count AS DOUBLE PRECISION) / CAST(class_size AS DOUBLE PRECISION) > CAST(0.5 AS DOUBLE PRECISION) + CAST(1e-09 AS DOUBLE PRECISION);

WITH sa_rows AS (
  SELECT
    "zip ""code""" AS "q0",
    "age" AS "q1",
    "sa" AS sa
  FROM "main"."sample"
), sa_frequencies AS (
  SELECT
    "q0",
    "q1",
    sa,
    COUNT(*) AS n
  FROM sa_rows
  GROUP BY
    "q0",
    "q1",
    sa
), shares AS (
  SELECT
    "q0",
    "q1",
    n,
    CAST(n AS DOUBLE PRECISION) / CAST(SUM(n) OVER (PARTITION BY "q0", "q1") AS DOUBLE PRECISION) AS p,
    CAST(SUM(n) OVER (PARTITION BY sa) AS DOUBLE PRECISION) / CAST(SUM(n) OVER () AS DOUBLE PRECISION) AS q
  FROM sa_frequencies
), class_stats AS (
  SELECT
    "q0",
    "q1",
    CAST(SUM(n) AS BIGINT) AS class_size,
    MAX(
      ABS(
        CAST(LN(CAST(p AS DOUBLE PRECISION) / q) AS DOUBLE PRECISION) / LN(CAST(2 AS DOUBLE PRECISION))
      )
    ) AS disclosure
  FROM shares
  GROUP BY
    "q0",
    "q1"
)
SELECT
  "q0" AS "zip ""code""",
  "q1" AS "age",
  class_size,
  disclosure
FROM class_stats
WHERE
  disclosure >= CAST(1.0 AS DOUBLE PRECISION) - CAST(1e-09 AS DOUBLE PRECISION);

WITH sa_rows AS (
  SELECT
    "zip ""code""" AS "q0",
    "age" AS "q1",
    "sa" AS sa
  FROM "main"."sample"
), sa_frequencies AS (
  SELECT
    "q0",
    "q1",
    sa,
    COUNT(*) AS n
  FROM sa_rows
  GROUP BY
    "q0",
    "q1",
    sa
), shares AS (
  SELECT
    "q0",
    "q1",
    n,
    CAST(n AS DOUBLE PRECISION) / CAST(SUM(n) OVER (PARTITION BY "q0", "q1") AS DOUBLE PRECISION) AS p,
    CAST(SUM(n) OVER (PARTITION BY sa) AS DOUBLE PRECISION) / CAST(SUM(n) OVER () AS DOUBLE PRECISION) AS q
  FROM sa_frequencies
), class_stats AS (
  SELECT
    "q0",
    "q1",
    CAST(SUM(n) AS BIGINT) AS class_size,
    MAX(CAST((
      p - q
    ) AS DOUBLE PRECISION) / q - CAST(1.0 AS DOUBLE PRECISION)) AS excess
  FROM shares
  GROUP BY
    "q0",
    "q1"
)
SELECT
  "q0" AS "zip ""code""",
  "q1" AS "age",
  class_size,
  excess
FROM class_stats
WHERE
  excess > CAST(1e-09 AS DOUBLE PRECISION);

WITH sa_rows AS (
  SELECT
    "zip ""code""" AS "q0",
    "age" AS "q1",
    "sa" AS sa
  FROM "main"."sample"
), sa_frequencies AS (
  SELECT
    "q0",
    "q1",
    sa,
    COUNT(*) AS n
  FROM sa_rows
  GROUP BY
    "q0",
    "q1",
    sa
), shares AS (
  SELECT
    "q0",
    "q1",
    n,
    CAST(n AS DOUBLE PRECISION) / CAST(SUM(n) OVER (PARTITION BY "q0", "q1") AS DOUBLE PRECISION) AS p,
    CAST(SUM(n) OVER (PARTITION BY sa) AS DOUBLE PRECISION) / CAST(SUM(n) OVER () AS DOUBLE PRECISION) AS q
  FROM sa_frequencies
), class_stats AS (
  SELECT
    "q0",
    "q1",
    CAST(SUM(n) AS BIGINT) AS class_size,
    MAX(
      CAST((
        p - q
      ) AS DOUBLE PRECISION) / q - LEAST(CAST(1.0 AS DOUBLE PRECISION), -LN(q))
    ) AS excess
  FROM shares
  GROUP BY
    "q0",
    "q1"
)
SELECT
  "q0" AS "zip ""code""",
  "q1" AS "age",
  class_size,
  excess
FROM class_stats
WHERE
  excess > CAST(1e-09 AS DOUBLE PRECISION);

WITH sa_rows AS (
  SELECT
    "zip ""code""" AS "q0",
    "age" AS "q1",
    "sa" AS sa
  FROM "main"."sample"
), sa_frequencies AS (
  SELECT
    "q0",
    "q1",
    sa,
    COUNT(*) AS n
  FROM sa_rows
  GROUP BY
    "q0",
    "q1",
    sa
), hierarchy AS (
  SELECT
    h.leaf,
    h.level,
    h.label
  FROM (VALUES
    ('a', 0, 'a'),
    ('a', 1, 'A'),
    ('b', 0, 'b'),
    ('b', 1, 'A')) AS h(leaf, level, label)
), levels AS (
  SELECT
    l.level
  FROM (VALUES
    (0),
    (1)) AS l(level)
), mapped AS (
  SELECT
    f."q0",
    f."q1",
    v.level,
    CASE WHEN h.label IS NULL THEN 1 ELSE 0 END AS unknown,
    COALESCE(h.label, CAST(f.sa AS TEXT)) AS label,
    f.n
  FROM sa_frequencies AS f
  CROSS JOIN levels AS v
  LEFT JOIN hierarchy AS h
    ON h.level = v.level AND h.leaf = CAST(f.sa AS TEXT)
), grouped AS (
  SELECT
    "q0",
    "q1",
    level,
    unknown,
    label,
    SUM(n) AS n
  FROM mapped
  GROUP BY
    "q0",
    "q1",
    level,
    unknown,
    label
), shares AS (
  SELECT
    "q0",
    "q1",
    level,
    n,
    CAST(n AS DOUBLE PRECISION) / CAST(SUM(n) OVER (PARTITION BY "q0", "q1", level) AS DOUBLE PRECISION) AS p,
    CAST(SUM(n) OVER (PARTITION BY level, unknown, label) AS DOUBLE PRECISION) / CAST(SUM(n) OVER (PARTITION BY level) AS DOUBLE PRECISION) AS q
  FROM grouped
), class_stats AS (
  SELECT
    "q0",
    "q1",
    CAST(SUM(CASE WHEN level = 0 THEN n ELSE 0 END) AS BIGINT) AS class_size,
    (
      SUM(ABS(p - q) - q) + CAST(2 AS DOUBLE PRECISION)
    ) / CAST(4 AS DOUBLE PRECISION) AS emd
  FROM shares
  GROUP BY
    "q0",
    "q1"
)
SELECT
  "q0" AS "zip ""code""",
  "q1" AS "age",
  class_size,
  emd
FROM class_stats
WHERE
  emd > CAST(0.2 AS DOUBLE PRECISION) + CAST(1e-09 AS DOUBLE PRECISION);
