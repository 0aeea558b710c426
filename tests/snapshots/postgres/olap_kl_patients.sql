WITH actual AS (
  SELECT
    CAST(s."disease" AS TEXT) AS sa,
    CASE
      WHEN s."age" < 40
      THEN 0
      WHEN s."age" < 45
      THEN 1
      WHEN s."age" < 50
      THEN 2
      WHEN s."age" < 55
      THEN 3
      WHEN s."age" < 60
      THEN 4
      WHEN s."age" < 65
      THEN 5
      WHEN s."age" < 70
      THEN 6
      ELSE 7
    END AS "c0",
    CASE
      WHEN s."weight" < 55
      THEN 0
      WHEN s."weight" < 60
      THEN 1
      WHEN s."weight" < 65
      THEN 2
      WHEN s."weight" < 70
      THEN 3
      WHEN s."weight" < 75
      THEN 4
      WHEN s."weight" < 80
      THEN 5
      WHEN s."weight" < 85
      THEN 6
      ELSE 7
    END AS "c1",
    COUNT(*) AS n
  FROM "main"."patients" AS s
  WHERE
    CAST(s."disease" AS TEXT) IN ('Diabetes')
  GROUP BY
    1,
    2,
    3
), published AS (
  SELECT
    CAST(r."disease" AS TEXT) AS sa,
    CAST(r."age" AS TEXT) AS "k0",
    CAST(r."weight" AS TEXT) AS "k1",
    COUNT(*) AS n
  FROM "anon"."hilbert4" AS r
  WHERE
    CAST(r."disease" AS TEXT) IN ('Diabetes')
  GROUP BY
    1,
    2,
    3
), classes AS (
  SELECT
    *
  FROM published
  UNION ALL
  SELECT
    t.sa,
    '[35, 70]',
    '[50, 85]',
    CAST(t.n - COALESCE(p.n, 0) AS BIGINT)
  FROM (
    SELECT
      sa,
      SUM(n) AS n
    FROM actual
    GROUP BY
      sa
  ) AS t
  LEFT JOIN (
    SELECT
      sa,
      SUM(n) AS n
    FROM published
    GROUP BY
      sa
  ) AS p
    ON p.sa = t.sa
  WHERE
    t.n > COALESCE(p.n, 0)
), "s0" AS (
  SELECT
    e.key,
    b.bin AS cell,
    CAST((
      LEAST(e.hi, b.b_hi - 1) - GREATEST(e.lo, b.b_lo) + 1
    ) AS DOUBLE PRECISION) / (
      e.hi - e.lo + 1
    ) AS f
  FROM (
    SELECT
      key,
      CASE
        WHEN key LIKE '[%'
        THEN CAST(SPLIT_PART(SUBSTRING(key FROM 2 FOR LENGTH(key) - 2), ', ', 1) AS DOUBLE PRECISION)
        ELSE CAST(key AS DOUBLE PRECISION)
      END AS lo,
      CASE
        WHEN key LIKE '[%'
        THEN CAST(SPLIT_PART(SUBSTRING(key FROM 2 FOR LENGTH(key) - 2), ', ', 2) AS DOUBLE PRECISION)
        ELSE CAST(key AS DOUBLE PRECISION)
      END AS hi
    FROM (
      SELECT DISTINCT
        "k0" AS key
      FROM classes
    ) AS u
  ) AS e
  JOIN (VALUES
    (0, 35, 40),
    (1, 40, 45),
    (2, 45, 50),
    (3, 50, 55),
    (4, 55, 60),
    (5, 60, 65),
    (6, 65, 70),
    (7, 70, 71)) AS b(bin, b_lo, b_hi)
    ON b.b_lo < b.b_hi AND b.b_lo <= e.hi AND b.b_hi > e.lo
), "s1" AS (
  SELECT
    e.key,
    b.bin AS cell,
    CAST((
      LEAST(e.hi, b.b_hi - 1) - GREATEST(e.lo, b.b_lo) + 1
    ) AS DOUBLE PRECISION) / (
      e.hi - e.lo + 1
    ) AS f
  FROM (
    SELECT
      key,
      CASE
        WHEN key LIKE '[%'
        THEN CAST(SPLIT_PART(SUBSTRING(key FROM 2 FOR LENGTH(key) - 2), ', ', 1) AS DOUBLE PRECISION)
        ELSE CAST(key AS DOUBLE PRECISION)
      END AS lo,
      CASE
        WHEN key LIKE '[%'
        THEN CAST(SPLIT_PART(SUBSTRING(key FROM 2 FOR LENGTH(key) - 2), ', ', 2) AS DOUBLE PRECISION)
        ELSE CAST(key AS DOUBLE PRECISION)
      END AS hi
    FROM (
      SELECT DISTINCT
        "k1" AS key
      FROM classes
    ) AS u
  ) AS e
  JOIN (VALUES
    (0, 50, 55),
    (1, 55, 60),
    (2, 60, 65),
    (3, 65, 70),
    (4, 70, 75),
    (5, 75, 80),
    (6, 80, 85),
    (7, 85, 86)) AS b(bin, b_lo, b_hi)
    ON b.b_lo < b.b_hi AND b.b_lo <= e.hi AND b.b_hi > e.lo
), unmatched AS (
  SELECT
    COUNT(*) AS classes
  FROM classes AS k
  WHERE
    NOT k."k0" IN (
      SELECT
        key
      FROM "s0"
    )
    OR NOT k."k1" IN (
      SELECT
        key
      FROM "s1"
    )
), "actual0" AS (
  SELECT
    sa,
    "c0",
    SUM(n) AS n
  FROM actual
  GROUP BY
    1,
    2
), "classes0" AS (
  SELECT
    sa,
    "k0",
    SUM(n) AS n
  FROM classes
  GROUP BY
    1,
    2
), "estimate0" AS (
  SELECT
    k.sa,
    "s0".cell AS "c0",
    SUM(k.n * "s0".f) AS e
  FROM "classes0" AS k
  LEFT JOIN "s0"
    ON "s0".key = k."k0"
  GROUP BY
    1,
    2
), "mass0" AS (
  SELECT
    sa,
    SUM(e) AS e
  FROM "estimate0"
  GROUP BY
    sa
), "kl0" AS (
  SELECT
    0 AS query,
    a.sa AS sa_value,
    SUM(a.n) AS source_rows,
    COUNT(*) AS cells,
    CASE
      WHEN MAX(m.e) > 0
      THEN CAST(SUM(CASE WHEN x.e > 0 THEN a.n * LN(CAST(a.n AS DOUBLE PRECISION) / x.e) ELSE 0 END) AS DOUBLE PRECISION) / SUM(a.n) + LN(CAST(MAX(m.e) AS DOUBLE PRECISION) / SUM(a.n))
    END AS kl,
    SUM(CASE WHEN x.e > 0 THEN 0 ELSE 1 END) AS uncovered
  FROM "actual0" AS a
  LEFT JOIN "estimate0" AS x
    ON x.sa = a.sa AND x."c0" = a."c0"
  LEFT JOIN "mass0" AS m
    ON m.sa = a.sa
  GROUP BY
    a.sa
), "actual1" AS (
  SELECT
    sa,
    "c1",
    SUM(n) AS n
  FROM actual
  GROUP BY
    1,
    2
), "classes1" AS (
  SELECT
    sa,
    "k1",
    SUM(n) AS n
  FROM classes
  GROUP BY
    1,
    2
), "estimate1" AS (
  SELECT
    k.sa,
    "s1".cell AS "c1",
    SUM(k.n * "s1".f) AS e
  FROM "classes1" AS k
  LEFT JOIN "s1"
    ON "s1".key = k."k1"
  GROUP BY
    1,
    2
), "mass1" AS (
  SELECT
    sa,
    SUM(e) AS e
  FROM "estimate1"
  GROUP BY
    sa
), "kl1" AS (
  SELECT
    1 AS query,
    a.sa AS sa_value,
    SUM(a.n) AS source_rows,
    COUNT(*) AS cells,
    CASE
      WHEN MAX(m.e) > 0
      THEN CAST(SUM(CASE WHEN x.e > 0 THEN a.n * LN(CAST(a.n AS DOUBLE PRECISION) / x.e) ELSE 0 END) AS DOUBLE PRECISION) / SUM(a.n) + LN(CAST(MAX(m.e) AS DOUBLE PRECISION) / SUM(a.n))
    END AS kl,
    SUM(CASE WHEN x.e > 0 THEN 0 ELSE 1 END) AS uncovered
  FROM "actual1" AS a
  LEFT JOIN "estimate1" AS x
    ON x.sa = a.sa AND x."c1" = a."c1"
  LEFT JOIN "mass1" AS m
    ON m.sa = a.sa
  GROUP BY
    a.sa
), "actual2" AS (
  SELECT
    sa,
    "c0",
    "c1",
    SUM(n) AS n
  FROM actual
  GROUP BY
    1,
    2,
    3
), "classes2" AS (
  SELECT
    sa,
    "k0",
    "k1",
    SUM(n) AS n
  FROM classes
  GROUP BY
    1,
    2,
    3
), "estimate2" AS (
  SELECT
    k.sa,
    "s0".cell AS "c0",
    "s1".cell AS "c1",
    SUM(k.n * "s0".f * "s1".f) AS e
  FROM "classes2" AS k
  LEFT JOIN "s0"
    ON "s0".key = k."k0"
  LEFT JOIN "s1"
    ON "s1".key = k."k1"
  GROUP BY
    1,
    2,
    3
), "mass2" AS (
  SELECT
    sa,
    SUM(e) AS e
  FROM "estimate2"
  GROUP BY
    sa
), "kl2" AS (
  SELECT
    2 AS query,
    a.sa AS sa_value,
    SUM(a.n) AS source_rows,
    COUNT(*) AS cells,
    CASE
      WHEN MAX(m.e) > 0
      THEN CAST(SUM(CASE WHEN x.e > 0 THEN a.n * LN(CAST(a.n AS DOUBLE PRECISION) / x.e) ELSE 0 END) AS DOUBLE PRECISION) / SUM(a.n) + LN(CAST(MAX(m.e) AS DOUBLE PRECISION) / SUM(a.n))
    END AS kl,
    SUM(CASE WHEN x.e > 0 THEN 0 ELSE 1 END) AS uncovered
  FROM "actual2" AS a
  LEFT JOIN "estimate2" AS x
    ON x.sa = a.sa AND x."c0" = a."c0" AND x."c1" = a."c1"
  LEFT JOIN "mass2" AS m
    ON m.sa = a.sa
  GROUP BY
    a.sa
)
SELECT
  r.query,
  r.sa_value,
  r.source_rows,
  r.cells,
  r.kl,
  r.uncovered,
  u.classes AS unmatched
FROM (
  SELECT
    *
  FROM "kl0"
  UNION ALL
  SELECT
    *
  FROM "kl1"
  UNION ALL
  SELECT
    *
  FROM "kl2"
) AS r
CROSS JOIN unmatched AS u;
