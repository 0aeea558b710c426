GRANT USAGE ON SCHEMA {{ schema | ident }} TO {{ role | ident }};
{% for r in relations %}
GRANT SELECT ON {{ r | qname }} TO {{ role | ident }};
{% endfor %}
