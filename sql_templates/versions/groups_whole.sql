{# The version's rows grouped as publish/refined groups the published release (``columns``,
   ``__anonsql_rows`` rows per group), on the coded columns' codes, each group then decoded
   (versions/_decoded.sql): grouping integers instead of labels. #}
{% from "versions/_decoded.sql" import decoded %}
CREATE TABLE {{ target | qname }} AS
SELECT {% for c in columns %}{{ decoded('g', c, decode) }} AS {{ c | ident }}, {% endfor %}g.{{ '__anonsql_rows' | ident }}
FROM (
  SELECT {% for c in columns %}r.{{ c | ident }}, {% endfor %}CAST(COUNT(*) AS BIGINT) AS {{ '__anonsql_rows' | ident }}
  FROM {{ rows | qname }} AS r
  GROUP BY {% for c in columns %}r.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}

) AS g
