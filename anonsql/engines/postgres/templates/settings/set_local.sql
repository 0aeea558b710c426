{# A setting for the rest of the current transaction only. #}
SET LOCAL {{ name | ident }} = {{ value | lit }}
