{# The version's rows (or the rows that left) with their coded columns decoded
   (versions/_decoded.sql), every column in the table's order: what the changed classes, the
   kept grouping and the differencing check compare with the published release. #}
{% from "versions/_decoded.sql" import decoded %}
CREATE {{ scratch }}VIEW {{ target | qname }} AS
SELECT
{% for c in columns %}
  {{ decoded('r', c, decode) }} AS {{ c | ident }}{{ "," if not loop.last }}
{% endfor %}
FROM {{ relation | qname }} AS r
