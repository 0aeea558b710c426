{# A simulated day of changes (bench/versions.py): the rows whose mix of id and day falls in
   one bucket of ``every`` are deleted (integer arithmetic: the same rows on every engine), and
   the pool's next rows are inserted. #}
DELETE FROM {{ source | qname }} WHERE (person_id * 2654435761 + {{ day | lit }} * 40503) % {{ every | lit }} = 0;
INSERT INTO {{ source | qname }}
SELECT * FROM {{ pool | qname }} WHERE person_id >= {{ start | lit }} AND person_id < {{ stop | lit }}
