{# The batch's rows left out of every class: held back until a later batch places them.
   ``placed`` is the placed batch (``flagged``: with its suppressed rows flagged) or a new
   history, which holds only the placed rows. #}
CREATE TABLE {{ target | qname }} AS
SELECT b.{{ key_hash | ident }}, b.{{ key_ord | ident }}
FROM {{ batch | qname }} AS b
WHERE NOT EXISTS (
  SELECT 1 FROM {{ placed | qname }} AS p
  WHERE {% if flagged %}NOT p.__anonsql_suppressed AND {% endif %}p.{{ key_hash | ident }} = b.{{ key_hash | ident }}
    AND p.{{ key_ord | ident }} = b.{{ key_ord | ident }}
)
