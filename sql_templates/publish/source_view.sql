{# The release's source as a private view, so status and checks read it by one name. #}
CREATE VIEW {{ target | qname }} AS SELECT * FROM {{ source | qname }} AS s
