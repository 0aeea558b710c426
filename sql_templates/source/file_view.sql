{# A source named by path (anonsql.spec.sources): a view over the files, which are only read. #}
CREATE OR REPLACE VIEW {{ target | qname }} AS SELECT * FROM
{% if format == "parquet" %}read_parquet({{ path | lit }}){% else %}read_csv({{ path | lit }}, header = true){% endif %}
