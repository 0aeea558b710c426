{# A 1:M release without a fingerprint column still publishes the (empty) fingerprints table. #}
CREATE {{ working_table }}TABLE {{ target | qname }} (
  safb INTEGER, label VARCHAR, depth INTEGER, first_leaf INTEGER, last_leaf INTEGER,
  ncp DOUBLE, persons BIGINT, items BIGINT
)
