{# The kept grouping brought to this version, inside the publish transaction: the groups
   versions/groups_next recomputed (``changed``, each with the hash of its values) replace the
   previous version's groups of those values; a group left with no row is gone. #}
{% from "versions/_keyed.sql" import row_hash %}
DELETE FROM {{ target | qname }}
WHERE {{ row_hash('', columns) }} IN (
  SELECT c.__anonsql_group_hash FROM {{ changed | qname }} AS c
);
INSERT INTO {{ target | qname }}
SELECT {% for c in columns %}c.{{ c | ident }}, {% endfor %}c.{{ '__anonsql_rows' | ident }}
FROM {{ changed | qname }} AS c
WHERE c.{{ '__anonsql_rows' | ident }} > 0
