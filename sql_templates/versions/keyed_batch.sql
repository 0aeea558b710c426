{# A new history's batch: every source row with its row key (versions/_keyed.sql), as a view
   over the source rather than a copy of it. The hashes that repeat are found once, into a
   small table; the rest is recomputed by each of the batch's readers (its key sums, the
   algorithm's working rows, the history, written once from it). At 1e8 rows on DuckDB the
   copy took 31 s; the history's own join reads the source in about the time it read the copy.
   ``scratch``: the prefix of the engine's run views (DuckDB's are temporary:
   Engine.scratch_view). ``parts``: the repeated hashes are found in that many aggregates,
   each over one part of the hash space (anonsql.versions.delta.hash_parts): one aggregate
   over 1e9 distinct hashes spilled 23 GiB. #}
{% from "versions/_keyed.sql" import repeated_hashes, keyed_rows %}
CREATE {{ working_table }}TABLE {{ repeated | qname }} AS
{{ repeated_hashes(source, columns, parts, 0) }};
{% for part in range(1, parts) %}
INSERT INTO {{ repeated | qname }}
{{ repeated_hashes(source, columns, parts, part) }};
{% endfor %}
CREATE {{ scratch }}VIEW {{ target | qname }} AS
{{ keyed_rows(source, columns, key_hash, key_ord, repeated | qname) }}
