{# The classes whose pending deletions leave now: those whose deleted rows, as one class, and
   whose remaining rows (if any) violate no model (``refusals``: the models' violation queries
   over the deleted and the remaining rows grouped by ``class_id``). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT DISTINCT d.__anonsql_class_id FROM {{ deleted | qname }} AS d
{% for q in refusals %}
{{ "WHERE" if loop.first else "AND" }} d.__anonsql_class_id NOT IN (SELECT v.__anonsql_class_id FROM ({{ q }}) AS v)
{% endfor %}
