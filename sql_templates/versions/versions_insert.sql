INSERT INTO {{ target | qname }} VALUES (
{% for v in values %}{{ v | lit }}{{ ", " if not loop.last }}{% endfor %}
)
