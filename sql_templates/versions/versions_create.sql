{# One summary row per version (private: it holds the source's checksum). #}
CREATE TABLE {{ target | qname }} (
  version INTEGER, created_at VARCHAR, published_rows BIGINT, inserted_rows BIGINT,
  deleted_rows BIGINT, held_rows BIGINT, pending_deletions BIGINT, source_checksum VARCHAR,
  spec_sha256 VARCHAR, run_id VARCHAR
)
