{# The first ``rows`` rows of the pool (bench/versions.py). #}
CREATE TABLE {{ target | qname }} AS SELECT * FROM {{ pool | qname }} WHERE person_id < {{ rows | lit }}
