{# What analysts query (``materialize: view``): a view of the version's private table, every
   row of it, nothing filtered. #}
CREATE VIEW {{ target | qname }} AS SELECT * FROM {{ rows | qname }}
