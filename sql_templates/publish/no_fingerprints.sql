{# A 1:M release without a fingerprint column still publishes the (empty) fingerprint tables. #}
CREATE {{ working_table }}TABLE {{ fingerprints | qname }} (
  safb INTEGER, label VARCHAR, depth INTEGER, first_leaf INTEGER, last_leaf INTEGER,
  ncp DOUBLE, persons BIGINT, items BIGINT
);

CREATE {{ working_table }}TABLE {{ item_map | qname }} (safb INTEGER, item VARCHAR, label VARCHAR)
