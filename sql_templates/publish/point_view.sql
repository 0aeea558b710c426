{# Repoint a release's name at the relation a run built (non-transactional engines). #}
CREATE OR REPLACE VIEW {{ target | qname }} AS SELECT * FROM {{ source | qname }}
