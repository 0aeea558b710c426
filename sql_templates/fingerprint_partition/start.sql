{# Every person starts in bucket 0, whose generalized fingerprint is the hierarchy's root. #}
CREATE {{ working_table }}TABLE {{ members | qname }} AS
SELECT person, CAST(0 AS BIGINT) AS bucket FROM {{ persons | qname }};

CREATE {{ working_table }}TABLE {{ done_members | qname }} AS
SELECT person, bucket FROM {{ members | qname }} WHERE FALSE;

CREATE {{ working_table }}TABLE {{ done_items | qname }} AS
SELECT person, leaf, node FROM {{ items | qname }} WHERE FALSE;

CREATE {{ working_table }}TABLE {{ tried | qname }} AS
SELECT bucket, CAST(0 AS INTEGER) AS node FROM {{ members | qname }} WHERE FALSE
