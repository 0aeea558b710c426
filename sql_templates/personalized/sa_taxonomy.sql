{# Every published label with each leaf it may stand for (a taxonomy node: the leaves below it;
   a leaf value or a fuzzy term: itself), so an analyst (and `anonsql check`) can read what a
   bucket says of a value. Only labels some cell publishes are listed. #}
{% from "personalized/_macros.sql" import attribute_name %}
CREATE TABLE {{ target | qname }} AS
SELECT DISTINCT {{ attribute_name("u.attr", names) }} AS attribute, lab.label, leaf.label AS leaf
FROM (SELECT DISTINCT attr, node FROM {{ slots | qname }}) AS u
JOIN {{ labels | qname }} AS lab ON lab.attr = u.attr AND lab.node = u.node
JOIN {{ covers | qname }} AS cv ON cv.attr = u.attr AND cv.node = u.node
JOIN {{ labels | qname }} AS leaf
  ON leaf.attr = cv.attr AND leaf.is_leaf AND leaf.first_leaf = cv.leaf
ORDER BY attribute, label, leaf
