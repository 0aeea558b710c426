{# The row keys of a new history's batch once placed: its version's rows and its held rows,
   together every row of the batch once (VersionedRecordLayout sums them, where the engine
   sums a new history's keys after placing them: Engine.numbers_repeats_after_sums). #}
CREATE VIEW {{ target | qname }} AS
SELECT r.{{ key_hash | ident }}, r.{{ key_ord | ident }} FROM {{ rows | qname }} AS r
UNION ALL
SELECT h.{{ key_hash | ident }}, h.{{ key_ord | ident }} FROM {{ held | qname }} AS h
