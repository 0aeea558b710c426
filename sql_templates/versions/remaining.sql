{# The rows a class with pending deletions keeps once they are applied: the class, the key and
   the ``columns`` the models' refusal queries read (versions/applied), not the whole rows; of
   the classes in ``classes`` (those whose deletions may leave). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT h.__anonsql_class_id, h.{{ key_hash | ident }}, h.{{ key_ord | ident }}{% for c in columns %}, h.{{ c | ident }}{% endfor %}

FROM {{ rows | qname }} AS h
WHERE h.__anonsql_class_id IN (SELECT c.__anonsql_class_id FROM {{ classes | qname }} AS c)
  AND NOT EXISTS (
    SELECT 1 FROM {{ deleted | qname }} AS d
    WHERE h.{{ key_hash | ident }} = d.{{ key_hash | ident }}
      AND h.{{ key_ord | ident }} = d.{{ key_ord | ident }}
  )
