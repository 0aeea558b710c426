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
{# the pending deletions are the version's rows as they were read (versions/gone_rows,
   versions/deleted: every column), so the rows that leave are copied from them, not found
   again among the version's rows (0.1 s a scan at 1e7 rows) #}
INSERT INTO {{ left | qname }}
SELECT d.*, CAST({{ version | lit }} AS INTEGER)
FROM {{ deleted | qname }} AS d
WHERE d.__anonsql_class_id IN (SELECT a.__anonsql_class_id FROM {{ applied | qname }} AS a);
DELETE FROM {{ rows | qname }}
WHERE {{ leaving(rows | qname) }}
