{# What analysts query (``materialize: view``): the published columns of every row of the
   version's private table, coded columns decoded (versions/_decoded.sql), nothing filtered. #}
{% from "versions/_decoded.sql" import decoded %}
CREATE VIEW {{ target | qname }} AS
SELECT {% for c in columns %}{{ decoded('r', c, decode) }} AS {{ c | ident }}{{ ", " if not loop.last }}{% endfor %}

FROM {{ rows | qname }} AS r
