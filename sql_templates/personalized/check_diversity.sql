{#
  Violations of frequency l-diversity (safe profile) per QID group (by_group) or per bucket:
  a unit in which some leaf value or term is covered by more than 1/l of the unit's cells (l of
  the attribute). An adversary who places a target in the unit then infers no value or term
  with confidence above 1/l (QID groups: even knowing every row's published cells; buckets: the
  per-group mixture over the group's buckets is bounded by the buckets' own confidence).
#}
{% from "personalized/_macros.sql" import attribute_name, per_attribute %}
{% from "personalized/_covered.sql" import covered %}
WITH {{ covered(cells, cell_leaves, members, by_group) }}
SELECT {{ attribute_name('cov.attr', names) }} AS attribute, cov.unit AS {{ ('group_id' if by_group else 'bucket') | ident }},
  s.size AS {{ ('group_size' if by_group else 'bucket_size') | ident }}, MAX(cov.n) AS top_count
FROM covered AS cov
JOIN unit_sizes AS s ON s.attr = cov.attr AND s.unit = cov.unit
WHERE cov.n * {{ per_attribute('cov.attr', l) }} > s.size
GROUP BY cov.attr, cov.unit, s.size
