{# Distinct quasi-identifier vectors of the source with their row counts (and the raw sensitive
   values when a model reads them): the one pass over the source. Values are grouped in their own
   type and turned into text afterwards, on the distinct vectors only (text is how they are
   matched to hierarchy leaves). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
{% for d in dims %}
  CAST(x.{{ ('v' ~ d.index) | ident }} AS VARCHAR) AS {{ ('v' ~ d.index) | ident }},
{% endfor %}
{% for s in sensitive %}
  x.{{ ('s' ~ loop.index0) | ident }},
{% endfor %}
  x.n
FROM (
  SELECT
{% for d in dims %}
    src.{{ d.column | ident }} AS {{ ('v' ~ d.index) | ident }},
{% endfor %}
{% for s in sensitive %}
    src.{{ s | ident }} AS {{ ('s' ~ loop.index0) | ident }},
{% endfor %}
    COUNT(*) AS n
  FROM {{ source | qname }} AS src
  GROUP BY
{% for d in dims %}
    src.{{ d.column | ident }}{{ ',' if not loop.last or sensitive }}
{% endfor %}
{% for s in sensitive %}
    src.{{ s | ident }}{{ ',' if not loop.last }}
{% endfor %}
) AS x
