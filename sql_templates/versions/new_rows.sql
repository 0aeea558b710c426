{# The batch without the keyed copy of the source (anonsql.versions.delta): the source rows
   whose row hash no published history row has, each with its key; their ordinals count from
   1, as no identical row is published. Exact when the rows of the hashes on both sides kept
   their multiplicities, which the key sums check (versions/key_sums). #}
{% from "versions/_keyed.sql" import row_hash %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT n.*, ROW_NUMBER() OVER (PARTITION BY n.{{ key_hash | ident }}) AS {{ key_ord | ident }}
FROM (
  SELECT s.*, {{ row_hash('s.', columns) }} AS {{ key_hash | ident }}
  FROM {{ source | qname }} AS s
) AS n
WHERE NOT EXISTS (
  SELECT 1 FROM {{ rows | qname }} AS h
  WHERE h.{{ key_hash | ident }} = n.{{ key_hash | ident }}
)
