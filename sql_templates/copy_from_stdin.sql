COPY {{ target | qname }} ({% for c in columns %}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}) FROM STDIN
