{# A simulated day of changes (bench/versions.py): the rows whose hash with the day falls in
   one bucket of ``every`` are deleted, and the pool's next rows are inserted. #}
DELETE FROM {{ source | qname }} WHERE HASH(person_id, {{ day | lit }}) % {{ every | lit }} = 0;
INSERT INTO {{ source | qname }}
SELECT * FROM {{ pool | qname }} WHERE person_id >= {{ start | lit }} AND person_id < {{ stop | lit }}
