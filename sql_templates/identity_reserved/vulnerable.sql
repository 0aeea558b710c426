{#
  Vulnerable classes of a release (Wang et al. 2019, §5): classes that satisfy IR (k,l)-anonymity
  but not EIR l-diversity (pair 'kl'), or IR (alpha,beta)- but not EIR (alpha,beta)-anonymity
  (pair 'alpha_beta'). Returns all classes, those satisfying the IR model, and the vulnerable.
#}
{% from "privacy/_ir_classes.sql" import ir_base, ir_search, share_exceeded %}
WITH {% if pair == 'kl' %}RECURSIVE {% endif %}{{ ir_base(relation, qids, person, column, by_count) }},
{% if pair == 'kl' %}
{{ ir_search(l) }},
judged AS (
  SELECT s.persons >= {{ k | lit }} AND s.sa_values >= {{ l | lit }} AS ir_ok, w.cls IS NULL AS eir_ok
  FROM ir_class_stats AS s
  LEFT JOIN ir_witnesses AS w ON w.cls = s.cls
)
{% else %}
judged AS (
  SELECT
    NOT ({{ share_exceeded('s.max_person_records', alpha, 's.records', epsilon) }}
      OR {{ share_exceeded('s.max_value_records', beta, 's.records', epsilon) }}) AS ir_ok,
    NOT ({{ share_exceeded('s.max_person_records', alpha, 's.records', epsilon) }}
      OR {{ share_exceeded('s.max_value_persons', beta, 's.persons', epsilon) }}) AS eir_ok
  FROM ir_class_stats AS s
)
{% endif %}
SELECT
  COUNT(*) AS classes,
  COALESCE(SUM(CASE WHEN ir_ok THEN 1 ELSE 0 END), 0) AS ir_classes,
  COALESCE(SUM(CASE WHEN ir_ok AND NOT eir_ok THEN 1 ELSE 0 END), 0) AS vulnerable
FROM judged
