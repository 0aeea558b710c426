SET {{ name | ident }} = {{ value | lit }}
