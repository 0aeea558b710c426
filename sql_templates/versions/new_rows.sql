{# The batch (versions/changes): the source rows whose row hash no published row has, each
   with its key; their ordinals count from 1, as no identical row is published. Exact when the
   rows of the hashes on both sides kept their multiplicities, which the key sums check
   (versions/key_sums). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT {% for c in columns %}n.{{ c | ident }}, {% endfor %}n.{{ key_hash | ident }},
  ROW_NUMBER() OVER (PARTITION BY n.{{ key_hash | ident }}) AS {{ key_ord | ident }}
FROM {{ changes | qname }} AS n
WHERE n.__anonsql_gone_hash IS NULL
