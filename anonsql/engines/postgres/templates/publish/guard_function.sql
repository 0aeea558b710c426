{# The fence of a guarded live view (PostgresEngine.create_guarded). Written in PostgreSQL's own
   dialect and run as written: sqlglot cannot generate CREATE FUNCTION. `body` is the guarded
   rows' query, already rendered for PostgreSQL. A SECURITY DEFINER function is never inlined:
   the planner cannot evaluate an analyst's predicate on a row before the function has returned
   it, and EXPLAIN shows nothing of the plan inside. It runs as its owner (who may read the
   source) with a search path an analyst cannot plant objects in (the body names every relation
   with its schema). The result columns take the released view's types, resolved now (%TYPE):
   the function does not depend on the view, which later runs drop and create again. #}
CREATE FUNCTION {{ function | qname }}()
RETURNS TABLE (
{% for c in columns %}
  {{ c | ident }} {{ released | qname }}.{{ c | ident }}%TYPE{{ "," if not loop.last }}
{% endfor %}
)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS {{ body | lit }}
