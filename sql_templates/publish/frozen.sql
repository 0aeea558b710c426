{# A frozen release (materialize: table): the released rows as they are at publish time. #}
CREATE TABLE {{ target | qname }} AS SELECT * FROM {{ released | qname }}
