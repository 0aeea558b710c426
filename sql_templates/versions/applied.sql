{# The classes of ``classes`` (rows with a ``__anonsql_class_id``: the pending deletions, or
   the classes kept by a first pass) that no model refuses (``refusals``: the models' violation
   queries, grouped by ``class_id``, over the deleted rows as one class, then over the rows the
   class keeps). Their pending deletions leave now. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT DISTINCT d.__anonsql_class_id FROM {{ classes | qname }} AS d
{% for q in refusals %}
{{ "WHERE" if loop.first else "AND" }} d.__anonsql_class_id NOT IN (SELECT v.__anonsql_class_id FROM ({{ q }}) AS v)
{% endfor %}
