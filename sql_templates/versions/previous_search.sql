{# What the previous version's algorithm recorded of its search (the certificate's ``search``,
   JSON text): a later version's batch is partitioned accordingly (Algorithm.for_later_batch). #}
SELECT c.search FROM {{ certificate | qname }} AS c
