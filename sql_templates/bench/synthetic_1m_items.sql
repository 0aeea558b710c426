{#
  Items of the synthetic 1:M data set: for every person of {{ persons }}, a number of draws n in
  1..max_items with P(n) proportional to 1/n^length_skew (short lists are common), then n item
  draws with P(rank r) proportional to 1/r^skew (Zipf-like) over `leaves` leaves. Popularity
  ranks are spread over the leaves by a seeded permutation, so popular items do not all sit
  under one branch of the hierarchy. Repeated draws of one item are kept once (a person's items
  are a set). Leaves are named prefix + the leaf number zero-padded to `width` digits.
  Uniform draws in [0, 1) take the top 53 bits of a 64-bit hash; each cumulative table ends at
  exactly 1, so every draw finds its row.
#}
CREATE TABLE {{ target | qname }} AS
WITH lengths AS (
  SELECT m,
         CASE WHEN m = {{ max_items | lit }} THEN 1.0
              ELSE SUM(POWER(m, 0.0 - {{ length_skew | lit }})) OVER (ORDER BY m)
                   / SUM(POWER(m, 0.0 - {{ length_skew | lit }})) OVER ()
         END AS cum
  FROM (SELECT CAST(s.range + 1 AS BIGINT) AS m FROM range({{ max_items | lit }}) AS s) AS sizes
), ranked AS (
  SELECT l.range AS leaf_no,
         ROW_NUMBER() OVER (ORDER BY HASH(l.range, {{ seed | lit }}, 'popularity'), l.range)
           AS popularity
  FROM range({{ leaves | lit }}) AS l
), popularity AS (
  SELECT leaf_no,
         CASE WHEN popularity = {{ leaves | lit }} THEN 1.0
              ELSE SUM(POWER(popularity, 0.0 - {{ skew | lit }})) OVER (ORDER BY popularity)
                   / SUM(POWER(popularity, 0.0 - {{ skew | lit }})) OVER ()
         END AS cum
  FROM ranked
), sized AS (
  SELECT p.person_id,
         (HASH(p.person_id, {{ seed | lit }}, 'length') >> 11) / 9007199254740992.0 AS u
  FROM {{ persons | qname }} AS p
), counted AS (
  SELECT s.person_id, l.m AS n
  FROM sized AS s
  ASOF JOIN lengths AS l ON s.u <= l.cum
), slots AS (
  SELECT person_id, UNNEST(RANGE(n)) AS slot FROM counted
), draws AS (
  SELECT person_id,
         (HASH(person_id, slot, {{ seed | lit }}, 'item') >> 11) / 9007199254740992.0 AS u
  FROM slots
)
SELECT DISTINCT d.person_id,
       {{ prefix | lit }} || LPAD(CAST(p.leaf_no AS VARCHAR), {{ width | lit }}, '0') AS item
FROM draws AS d
ASOF JOIN popularity AS p ON d.u <= p.cum
