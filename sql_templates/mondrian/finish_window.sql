{# Nothing in the window splits: its partitions are final. #}
INSERT INTO {{ done | qname }}
SELECT * FROM {{ work | qname }} WHERE pid >= {{ window[0] | lit }} AND pid < {{ window[1] | lit }};

DELETE FROM {{ work | qname }} WHERE pid >= {{ window[0] | lit }} AND pid < {{ window[1] | lit }}
