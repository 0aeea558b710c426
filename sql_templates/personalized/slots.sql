{# The final cells with their published slot in the bucket table: a keyed shuffle (safe
   profile: the row order of one attribute's buckets says nothing about another's, digest G2),
   or the dealing order (paper_compat, the paper's aligned tables). #}
{% from "personalized/_macros.sql" import mix %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  c.*,
  CAST(ROW_NUMBER() OVER (
    PARTITION BY c.attr, c.bucket
    ORDER BY {% if shuffle %}{{ mix('c.rid * 64 + c.attr', mixer) }}{% else %}c.pos{% endif %}, c.rid
  ) AS BIGINT) AS slot
FROM {{ cells | qname }} AS c
