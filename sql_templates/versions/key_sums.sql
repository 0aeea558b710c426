{# Rows and two sums of row keys modulo primes, over the source (its rows hashed: ``columns``)
   or over a keyed relation (the version's rows, a batch). The first sum
   is the source's checksum (status/checksum). ``distinct``: also the distinct keys (a new
   history's placed keys, whose repeated hashes are numbered after the sums:
   Engine.numbers_repeats_after_sums). Over stored keys PostgreSQL counts 1e7 distinct ones in
   4.4 s, and grouped them (an aggregate it estimated at 200 groups) in 17 s. #}
{% from "versions/_key_sums.sql" import key_sums %}
{{ key_sums(relation, columns, key_hash, distinct) }}
