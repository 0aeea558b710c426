{# A guarded live view: what analysts query of a live release (the rows of
   publish/guarded_rows). Engines whose planner would evaluate an analyst's filters below the
   guard create a fenced view instead (Engine.create_guarded). #}
CREATE VIEW {{ target | qname }} AS
{% include 'publish/guarded_rows.sql' %}
