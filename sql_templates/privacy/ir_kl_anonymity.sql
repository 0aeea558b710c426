{# IR (k,l)-anonymity: classes with fewer than k individuals or l distinct sensitive values. #}
{% from "privacy/_ir_classes.sql" import ir_base, ir_class_columns %}
{% set by_count = record_counts == 'protected' %}
WITH {{ ir_base(relation, qids, person, column, by_count) }}
SELECT {{ ir_class_columns(qids, by_count) }}s.persons AS class_persons, s.sa_values AS distinct_values
FROM ir_class_stats AS s
JOIN ir_classes AS c ON c.cls = s.cls
WHERE s.persons < {{ k | lit }} OR s.sa_values < {{ l | lit }}
