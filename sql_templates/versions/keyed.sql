{% from "versions/_keyed.sql" import keyed %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
{{ keyed(source, columns, key_hash, key_ord) }}
