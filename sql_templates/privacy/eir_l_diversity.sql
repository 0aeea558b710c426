{# EIR l-diversity: classes whose individuals' sensitive sets have a hitting set of fewer than l values (a reasoning set with fewer than l distinct values). #}
{% from "privacy/_ir_classes.sql" import ir_base, ir_class_columns, ir_search %}
{% set by_count = record_counts == 'protected' %}
WITH RECURSIVE {{ ir_base(relation, qids, person, column, by_count) }},
{{ ir_search(l) }}
SELECT {{ ir_class_columns(qids, by_count) }}s.persons AS class_persons, s.sa_values AS distinct_values,
  w.hitting_set AS min_hitting_set
FROM ir_witnesses AS w
JOIN ir_class_stats AS s ON s.cls = w.cls
JOIN ir_classes AS c ON c.cls = w.cls
