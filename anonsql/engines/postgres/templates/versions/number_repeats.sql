{# A new history's batch when some row hash repeats (versions/keyed_batch.sql gave every row
   ordinal 1): the view replaced by a keyed copy of the source whose rows of one hash are
   numbered 1..n by a window, as versions/_keyed.sql numbers them. Run only when the key sums
   counted fewer distinct hashes than rows. #}
{% from "versions/_keyed.sql" import keyed %}
DROP VIEW {{ target | qname }};
CREATE {{ working_table }}TABLE {{ target | qname }} AS
{{ keyed(source, columns, key_hash, key_ord) }}
