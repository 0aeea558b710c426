{# `csv`: the rows come as CSV (an empty unquoted field is NULL, "" an empty text). #}
COPY {{ target | qname }} ({% for c in columns %}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}) FROM STDIN{% if csv | default(false) %} WITH (FORMAT csv){% endif %}
