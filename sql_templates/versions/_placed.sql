{# The batch's rows joined to the classes the algorithm gave them: a new class id each
   (``offset`` + partition), the published values (a coded column's code: publish/recoding),
   and whether their class was suppressed. #}
{% macro placed_rows(batch, recoding, columns, dims, suffix, offset, key_hash, key_ord) -%}
SELECT
  b.{{ key_hash | ident }}, b.{{ key_ord | ident }},
  CAST(m.{{ '__anonsql_pid' | ident }} AS BIGINT) + {{ offset | lit }} AS __anonsql_class_id,
  m.{{ '__anonsql_suppressed' | ident }} AS __anonsql_suppressed,
{% for c in columns %}
{% if c.coded %}
  m.{{ (c.name ~ '__anonsql_code') | ident }} AS {{ c.name | ident }}{{ "," if not loop.last }}
{% elif c.qid %}
  m.{{ (c.name ~ suffix) | ident }} AS {{ c.name | ident }}{{ "," if not loop.last }}
{% else %}
  b.{{ c.name | ident }} AS {{ c.name | ident }}{{ "," if not loop.last }}
{% endif %}
{% endfor %}
FROM {{ batch | qname }} AS b
JOIN {{ recoding | qname }} AS m
  ON {% for d in dims %}{% if d.is_numeric %}m.{{ d.column | ident }} = b.{{ d.column | ident }}{% else %}m.{{ d.column | ident }} = CAST(b.{{ d.column | ident }} AS VARCHAR){% endif %}{{ " AND " if not loop.last }}{% endfor %}
{%- endmacro %}
