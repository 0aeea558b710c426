{# The pending deletions of the classes whose batch is applied leave the version's rows at
   ``version``, for the private table of the rows that left. #}
{% macro leaving(alias) -%}
{{ alias }}.__anonsql_class_id IN (SELECT a.__anonsql_class_id FROM {{ applied | qname }} AS a)
  AND EXISTS (
    SELECT 1 FROM {{ deleted | qname }} AS d
    WHERE d.{{ key_hash | ident }} = {{ alias }}.{{ key_hash | ident }}
      AND d.{{ key_ord | ident }} = {{ alias }}.{{ key_ord | ident }}
  )
{%- endmacro %}
INSERT INTO {{ left | qname }}
SELECT r.*, CAST({{ version | lit }} AS INTEGER)
FROM {{ rows | qname }} AS r
WHERE {{ leaving("r") }};
DELETE FROM {{ rows | qname }}
WHERE {{ leaving(rows | qname) }}
