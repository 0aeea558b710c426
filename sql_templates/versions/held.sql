{# The batch's rows left out of every class: held back until a later batch places them.
   ``placed`` is the placed batch (``flagged``: with its suppressed rows flagged) or a new
   history, which holds only the placed rows. ``nothing_held``: the algorithm placed every row
   of a new history's batch (none suppressed), so no row is looked up (11.6 s at 1e8 rows). #}
CREATE TABLE {{ target | qname }} AS
SELECT b.{{ key_hash | ident }}, b.{{ key_ord | ident }}
FROM {{ batch | qname }} AS b
{% if nothing_held %}
WHERE 1 = 0
{% else %}
WHERE NOT EXISTS (
  SELECT 1 FROM {{ placed | qname }} AS p
  WHERE {% if flagged %}NOT p.__anonsql_suppressed AND {% endif %}p.{{ key_hash | ident }} = b.{{ key_hash | ident }}
    AND p.{{ key_ord | ident }} = b.{{ key_ord | ident }}
)
{% endif %}
