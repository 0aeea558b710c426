{# Nothing in the window splits: its partitions are final. Spark cannot DELETE from its plain
   tables, so the working table is rebuilt without the window. #}
{% set kept = work.with_name(work.name ~ "_kept") %}
INSERT INTO {{ done | qname }}
SELECT * FROM {{ work | qname }} WHERE pid >= {{ window[0] | lit }} AND pid < {{ window[1] | lit }};

CREATE TABLE {{ kept | qname }} AS
SELECT * FROM {{ work | qname }} WHERE NOT (pid >= {{ window[0] | lit }} AND pid < {{ window[1] | lit }});

DROP TABLE {{ work | qname }};

ALTER TABLE {{ kept | qname }} RENAME TO {{ work.name | ident }}
