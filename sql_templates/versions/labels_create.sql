{# The release's label dictionary: every label a coded quasi-identifier column was published
   with, numbered from 1 per column in the order the versions first published them (a code is
   never reused or renumbered). The version's rows hold the codes, the views decode them
   (versions/_decoded.sql): writing eight short text columns per row was most of a new
   history's cost (1e8 rows: 48.1 s as text, 28.7 s as codes). #}
CREATE TABLE {{ target | qname }} (
  __anonsql_column VARCHAR, __anonsql_code INTEGER, __anonsql_label VARCHAR
)
