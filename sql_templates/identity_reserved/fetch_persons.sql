{# The workspace's persons for the identity-reserved algorithms: pseudonym number, record count
   and coded quasi-identifiers (numeric values, categorical leaf ranks), in person order. #}
SELECT person, n{% for d in dims %}, {{ d.code | ident }}{% endfor %}

FROM {{ persons | qname }}
ORDER BY person
