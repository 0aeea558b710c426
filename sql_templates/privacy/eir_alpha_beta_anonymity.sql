{# EIR (alpha,beta)-anonymity: an individual owns more than alpha of the class's records, or more than beta of its individuals share a sensitive value. #}
{% from "privacy/_ir_classes.sql" import ir_base, ir_class_columns, share_exceeded %}
{% set by_count = record_counts == 'protected' %}
WITH {{ ir_base(relation, qids, person, column, by_count) }}
SELECT {{ ir_class_columns(qids, by_count) }}s.persons AS class_persons, s.records AS class_records,
  s.max_person_records, s.max_value_persons
FROM ir_class_stats AS s
JOIN ir_classes AS c ON c.cls = s.cls
WHERE {{ share_exceeded('s.max_person_records', alpha, 's.records', epsilon) }}
   OR {{ share_exceeded('s.max_value_persons', beta, 's.persons', epsilon) }}
