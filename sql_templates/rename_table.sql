ALTER TABLE {{ source | qname }} RENAME TO {{ target_name | ident }}
