{# The classes a later version changes, as analysts group them (by the published
   quasi-identifiers ``qids``): the hash of the published values of every row placed at
   ``version`` (a class that gained rows) or that left at ``version`` (one that lost rows). NULL-
   safe on every engine; a collision adds a class to check, never takes one away. #}
{% from "versions/_keyed.sql" import row_hash %}
{% macro changed_classes(rows, left, qids, version) -%}
SELECT {{ row_hash('t.', qids) }} FROM {{ rows | qname }} AS t
WHERE t.__anonsql_since = {{ version | lit }}
UNION ALL
SELECT {{ row_hash('l.', qids) }} FROM {{ left | qname }} AS l
WHERE l.__anonsql_until = {{ version | lit }}
{%- endmacro %}
