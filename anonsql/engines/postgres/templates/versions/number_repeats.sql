{# The ordinals of a keyed batch's rows whose hash repeats (versions/keyed_batch.sql gave every
   row 1): 1..n among the rows of one hash, as the window of versions/_keyed.sql numbers them.
   Run only when the key sums counted fewer distinct hashes than rows. #}
UPDATE {{ target | qname }} AS t
SET {{ key_ord | ident }} = w.o
FROM (
  SELECT r.ctid AS c, ROW_NUMBER() OVER (PARTITION BY r.{{ key_hash | ident }}) AS o
  FROM {{ target | qname }} AS r
  WHERE r.{{ key_hash | ident }} IN (
    SELECT d.{{ key_hash | ident }} FROM {{ target | qname }} AS d
    GROUP BY d.{{ key_hash | ident }} HAVING COUNT(*) > 1
  )
) AS w
WHERE t.ctid = w.c AND w.o > 1
