{# The paper's tuple-level mapping (digest G1 (a), paper_compat only): every published tuple
   (a keyed-shuffled id, not the row key) with its group and, per sensitive attribute, the
   bucket and slot of its cell. #}
{% from "personalized/_macros.sql" import attribute_name, mix %}
CREATE TABLE {{ target | qname }} AS
SELECT t.tuple_id, m.group_id, {{ attribute_name('s.attr', names) }} AS attribute, s.bucket, s.slot
FROM {{ slots | qname }} AS s
JOIN {{ members | qname }} AS m ON m.rid = s.rid
JOIN (
  SELECT rid, CAST(ROW_NUMBER() OVER (ORDER BY {{ mix('rid', mixer) }}, rid) AS BIGINT) AS tuple_id
  FROM {{ rows | qname }}
) AS t ON t.rid = s.rid
