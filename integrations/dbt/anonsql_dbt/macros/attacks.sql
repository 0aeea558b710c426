{#
  attacks: one row per attack whose figure on the tested release beats the bound the certified
  models promise (zero rows = fine), what `anonsql attack` exits 4 on. The attacks are the ones
  its certificate records with a bound (the adversary the certified models speak of), re-run
  on the relation analysts read, by the SQL `anonsql attack` runs (generated from
  sql_templates/attacks and linked/recovery.sql: macros/generated/attack_queries.sql):
  * singling out: a combination of the known columns published for one individual;
  * linkability: a group of fewer than k rows (a linking guess beats 1/k);
  * attribute inference: a group where one sensitive value's share beats the confidence bound
    the certificate records (for models whose bound depends on the release's distribution,
    t-closeness and beta-likeness, the bound as the release was certified);
  * linkage: a generalized quasi-identifier recovered through the published columns, read
    against the private source view.
  A release certified before anonsql recorded attacks is one problem (re-run anonsql). The
  certificate is found as the `certified` test finds it (the tested relation, its release
  schema, or the argument `release`, "schema.name"); a 1:M release is attacked on its
  __by_person companion (one row per person). Like `certified`, the test reads the private
  schema (linkage), so it runs as the user who runs anonsql.
#}
{#- column_name: declared under a column, the test still attacks the whole release -#}
{% test attacks(model, release=none, column_name=none) %}
{#- `dbt build --empty` reads every relation empty: nothing to certify or attack -#}
{%- if flags.EMPTY -%}
SELECT 'empty build' AS problem WHERE 1 = 0
{%- else -%}
{{ anonsql_dbt.explain('attacks', model, anonsql_dbt.attack_problems(model, release)) }}
{%- endif %}
{% endtest %}

{% macro attack_problems(model, release=none) -%}
  {{ return(adapter.dispatch('attack_problems', 'anonsql_dbt')(model, release)) }}
{%- endmacro %}

{#- One problem row: `what`, as a literal (a FROM and a WHERE may follow). -#}
{% macro attack_problem(what) -%}
  {{ return("SELECT " ~ anonsql_dbt.lit(what) ~ " AS problem") }}
{%- endmacro %}

{#- A figure beats its bound only beyond this slack (anonsql.attacks.base.SLACK). -#}
{% macro attack_slack() -%}
  {{ return(0.000000001) }}
{%- endmacro %}

{% macro default__attack_problems(model, release=none) -%}
{%- if not execute -%}
SELECT 'parsing' AS problem WHERE 1 = 0
{%- else -%}
{#- the linkage query casts to VARCHAR and splits intervals: tested on these adapters only -#}
{{- anonsql_dbt.require_tested_adapter(tested=['duckdb', 'postgres'], what='attacks test') -}}
{%- set certificate = anonsql_dbt.find_certificate(model, release) -%}
{%- if certificate is none -%}
SELECT {{ anonsql_dbt.lit('no anonsql certificate found for ' ~ model ~ (' (release ' ~ release ~ ')' if release else '')) }} AS problem
{%- else -%}
{%- set table = run_query('SELECT * FROM ' ~ certificate) -%}
{%- set recorded = table.rows[0] if table.rows | length > 0 else none -%}
{%- set fields = table.column_names -%}
{%- set results = fromjson(recorded['attacks']) if recorded is not none and 'attacks' in fields and recorded['attacks'] else none -%}
{%- set layout = recorded['layout'] if recorded is not none and 'layout' in fields and recorded['layout'] else 'record' -%}
{%- if layout == 'record' -%}
  {%- set attacked = model -%}
{%- else -%}
  {%- set attacked = api.Relation.create(database=certificate.database, schema=certificate.schema,
        identifier=anonsql_dbt.companion_identifier(anonsql_dbt.certified_release_identifier(certificate), 'by_person')) -%}
{%- endif -%}
{%- set present = adapter.get_columns_in_relation(attacked) | map(attribute='name') | list -%}
{%- set problems = [] -%}
{%- if results is none -%}
  {%- do problems.append(anonsql_dbt.attack_problem('the certificate records no attacks (certified before anonsql recorded them): re-run anonsql')) -%}
{%- else -%}
  {%- for r in results if r['bound'] is not none and r['worst'] is not none -%}
    {%- set on = ' on ' ~ r['attribute'] if r['attribute'] else '' -%}
    {%- set what = r['attack'] ~ on ~ ' knowing ' ~ r['knows'] | join(', ') -%}
    {%- set missing = [] -%}
    {%- for c in r['knows'] + ([r['attribute']] if r['attribute'] else []) if c not in present -%}
      {%- do missing.append(c) -%}
    {%- endfor -%}
    {%- set limit = r['bound'] + anonsql_dbt.attack_slack() -%}
    {%- if missing -%}
      {%- do problems.append(anonsql_dbt.attack_problem(what ~ ': the relation no longer has the column(s) ' ~ missing | join(', ') ~ ' the attack reads')) -%}
    {%- elif r['attack'] == 'singling_out' -%}
      {%- do problems.append(anonsql_dbt.attack_problem(what ~ ': a published combination isolates an individual') ~ " FROM (" ~ anonsql_dbt.attacks_groups(relation=attacked, known=r['knows'], counted=false) ~ ") AS g WHERE CAST(g.isolated AS " ~ anonsql_dbt.type_double() ~ ") / NULLIF(" ~ r['attacked'] ~ ", 0) > " ~ limit) -%}
    {%- elif r['attack'] == 'linkability' -%}
      {%- do problems.append(anonsql_dbt.attack_problem(what ~ ': a linking guess beats the bound ' ~ r['bound'] ~ ' (a group below k)') ~ " FROM (" ~ anonsql_dbt.attacks_groups(relation=attacked, known=r['knows'], counted=false) ~ ") AS g WHERE g.smallest > 0 AND 1.0 / CAST(g.smallest AS " ~ anonsql_dbt.type_double() ~ ") > " ~ limit) -%}
    {%- elif r['attack'] == 'inference' -%}
      {%- do problems.append(anonsql_dbt.attack_problem(what ~ ': the confidence in a value beats the bound ' ~ r['bound']) ~ " FROM (" ~ anonsql_dbt.attacks_inference(relation=attacked, known=r['knows'], column=r['attribute'], counted=false) ~ ") AS i WHERE i.confidence > " ~ limit) -%}
    {%- elif r['attack'] == 'linkage' and layout == 'record' -%}
      {%- do problems.append(anonsql_dbt.linkage_problem(certificate, attacked, r, what, limit)) -%}
    {%- else -%}
      {%- do problems.append(anonsql_dbt.attack_problem(what ~ ': the attacks test cannot re-run this attack; run `anonsql attack`')) -%}
    {%- endif -%}
  {%- endfor -%}
{%- endif -%}
{%- if problems -%}
{{ problems | join('\nUNION ALL\n') }}
{%- else -%}
SELECT 'no attack with a bound' AS problem WHERE 1 = 0
{%- endif -%}
{%- endif -%}
{%- endif -%}
{%- endmacro %}

{#- The linkage attack of one recorded result: the recovery query on the tested relation,
    against the release's private source view and hierarchy nodes, through the columns the
    attack matched; one problem when a generalized value is recovered for a share of the
    individuals beyond the bound. -#}
{% macro linkage_problem(certificate, attacked, result, what, limit) -%}
  {%- set source = anonsql_dbt.certified_private_relation(certificate, 'source') -%}
  {%- if source is none -%}
    {{ return(anonsql_dbt.attack_problem(what ~ ': the private source view is missing (re-run anonsql)')) }}
  {%- endif -%}
  {#- a record release always writes both (its layout copies them), so they are not looked up:
      a missing one fails the test loudly instead of leaving quasi-identifiers out -#}
  {%- set nodes = anonsql_dbt.certified_private_relation(certificate, 'hierarchy_nodes', must_exist=false) -%}
  {%- set attributes = anonsql_dbt.certified_private_relation(certificate, 'attributes', must_exist=false) -%}
  {%- set kinds = {} -%}
  {%- for row in run_query('SELECT attribute, kind FROM ' ~ attributes).rows -%}
    {%- do kinds.update({row[0]: row[1]}) -%}
  {%- endfor -%}
  {%- set qids = [] -%}
  {%- for q in result['parameters']['recovered_rows'] -%}
    {%- do qids.append({'column': q, 'numeric': kinds.get(q) == 'numeric'}) -%}
  {%- endfor -%}
  {%- set matched = result['parameters'].get('matched') -%}
  {%- if matched is none -%}
    {{ return(anonsql_dbt.attack_problem(what ~ ': the certificate does not record the columns the attack matched (re-run anonsql)')) }}
  {%- endif -%}
  {%- if qids | length == 0 -%}
    {{ return("SELECT 'no quasi-identifier to recover' AS problem WHERE 1 = 0") }}
  {%- endif -%}
  {{ return(anonsql_dbt.attack_problem(what ~ ': a generalized quasi-identifier is recovered through the published columns') ~ " FROM (SELECT MAX(recovered) AS recovered FROM (" ~ anonsql_dbt.linked_recovery(release=attacked, source=source, nodes=nodes, qids=qids, columns=matched, weighted=false) ~ ") AS per_qid) AS l WHERE CAST(COALESCE(l.recovered, 0) AS " ~ anonsql_dbt.type_double() ~ ") / NULLIF(" ~ result['attacked'] ~ ", 0) > " ~ limit) }}
{%- endmacro %}
