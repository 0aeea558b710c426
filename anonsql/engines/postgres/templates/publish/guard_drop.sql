{# The fence function of an earlier guarded view of the same name (its view is dropped first). #}
DROP FUNCTION IF EXISTS {{ function | qname }}()
