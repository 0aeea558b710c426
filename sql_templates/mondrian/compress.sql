{# Mondrian's working table: one row per distinct (partition, coded QIDs, coded sensitive
   values) with the number of rows it stands for. A partition is a set of QID vectors (bins
   never separate equal vectors), so the rounds can run on this table, whose size grows with
   the distinct vectors rather than the rows (235k for 1e6 synthetic Adult rows, 885k for 1e7). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT pid{% for c in payload %}, {{ c | ident }}{% endfor %}, CAST(COUNT(*) AS BIGINT) AS {{ weight | ident }}
FROM {{ rows | qname }}
GROUP BY pid{% for c in payload %}, {{ c | ident }}{% endfor %}
