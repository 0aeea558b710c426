{# Rows and two sums of row keys modulo primes, over the source (its rows hashed: ``columns``)
   or over a keyed relation (the version's rows, a batch). The first sum
   is the source's checksum (status/checksum). ``distinct``: also the distinct keys (a new
   history's placed keys, whose repeated hashes are numbered after the sums:
   Engine.numbers_repeats_after_sums). Over stored keys PostgreSQL counts 1e7 distinct ones in
   4.4 s, and grouped them (an aggregate it estimated at 200 groups) in 17 s. #}
{% from "versions/_keyed.sql" import row_hash %}
SELECT COUNT(*) AS n,
  COALESCE(SUM(k.h % 1000000007), 0) AS first_sum,
  COALESCE(SUM(k.h % 998244353), 0) AS second_sum{% if distinct %},
  COUNT(DISTINCT k.h) AS distinct_keys{% endif %}

FROM (
{% if columns %}
  SELECT {{ row_hash('s.', columns) }} AS h FROM {{ relation | qname }} AS s
{% else %}
  SELECT r.{{ key_hash | ident }} AS h FROM {{ relation | qname }} AS r
{% endif %}
) AS k
