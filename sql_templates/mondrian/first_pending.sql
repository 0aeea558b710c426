{# The lowest pending partition id and the working rows left (to decide whether the
   remaining rounds can run in memory). #}
SELECT MIN(pid), COUNT(*) FROM {{ work | qname }}
