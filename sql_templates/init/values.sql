{# Direct identifiers recognized by their values, for `anonsql init`: over a bounded sample of
   the table, per text column, the non-NULL values and how many match each pattern (counts
   only; anonsql.init.identifiers documents the patterns). `patterns`: (name, regex, extra
   condition or none) where the condition is a template macro name below. #}
{% macro value(c) %}TRIM(CAST({{ c | ident }} AS VARCHAR)){% endmacro %}
{% macro compact(c) %}UPPER(REPLACE({{ value(c) }}, ' ', '')){% endmacro %}
{% macro first_word(c) %}SPLIT_PART(LOWER({{ value(c) }}), ' ', 1){% endmacro %}
{% macro matches(c, i, p) -%}
{%- if p.kind == "regex" -%}
REGEXP_MATCHES({{ value(c) }}, {{ p.regex | lit }})
{%- if p.name == "phone" %} AND NOT REGEXP_MATCHES({{ value(c) }}, {{ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' | lit }}){% endif %}
{%- if p.name == "us_ssn" %} AND SUBSTR({{ value(c) }}, 1, 3) NOT IN ('000', '666') AND SUBSTR({{ value(c) }}, 5, 2) <> '00' AND SUBSTR({{ value(c) }}, 8, 4) <> '0000'{% endif %}
{%- if p.name == "uk_nino" %} AND SUBSTR({{ compact(c) }}, 1, 2) NOT IN ('BG', 'GB', 'NK', 'KN', 'TN', 'NT', 'ZZ'){% endif %}
{%- elif p.kind == "iban" -%}
REGEXP_MATCHES({{ compact(c) }}, {{ p.regex | lit }}) AND {{ iban_mod97(i) }} = 1
{%- else -%}
({{ first_word(c) }} IN ({% for n in p.words %}{{ n | lit }}{{ ", " if not loop.last }}{% endfor %})
 OR LOWER({{ value(c) }}) IN ({% for n in p.words %}{{ n | lit }}{{ ", " if not loop.last }}{% endfor %}))
{%- endif -%}
{%- endmacro %}
{# ISO 13616 check of the IBAN-shaped values: the first four characters moved to the end,
   letters replaced by 10..35 (one REPLACE per CTE, to keep expressions shallow), the number
   modulo 97 is 1; computed 7 digits at a time (at most 34 characters, 68 digits). #}
{% macro digits_name(i) %}{{ ('__anonsql_iban' ~ i) | ident }}{% endmacro %}
{% macro iban_mod97(i) -%}
{%- set ns = namespace(r="0") -%}
{%- for j in range(10) -%}
{%- set chunk = "SUBSTR(" ~ digits_name(i) ~ ", " ~ (1 + 7 * j) ~ ", 7)" -%}
{%- set ns.r = "MOD(" ~ ns.r ~ " * CAST(POWER(10, LENGTH(" ~ chunk ~ ")) AS BIGINT) + CAST(COALESCE(NULLIF(" ~ chunk ~ ", ''), '0') AS BIGINT), 97)" -%}
{%- endfor -%}
{{ ns.r }}
{%- endmacro %}
{% set letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ" %}
WITH sample AS (
  SELECT {% for c in columns %}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}
  FROM {{ relation | qname }}
  LIMIT {{ sample | int }}
), letters0 AS (
  SELECT *
{% for c in columns %}
    , SUBSTR({{ compact(c) }}, 5) || SUBSTR({{ compact(c) }}, 1, 4) AS {{ digits_name(loop.index0) }}
{% endfor %}
  FROM sample
)
{% for letter in letters %}
, {{ ('letters' ~ loop.index) | ident }} AS (
  SELECT {% for c in columns %}{{ c | ident }}, REPLACE({{ digits_name(loop.index0) }}, '{{ letter }}', '{{ letters.index(letter) + 10 }}') AS {{ digits_name(loop.index0) }}{{ ", " if not loop.last }}{% endfor %}

  FROM {{ ('letters' ~ loop.index0) | ident }}
)
{% endfor %}
SELECT
  COUNT(*) AS "rows"
{% for c in columns %}
{% set i = loop.index0 %}
  , COUNT({{ c | ident }}) AS {{ ('present' ~ i) | ident }}
{% for p in patterns %}
  , SUM(CASE WHEN {{ c | ident }} IS NOT NULL AND {{ matches(c, i, p) }} THEN 1 ELSE 0 END)
    AS {{ ('match' ~ i ~ '_' ~ loop.index0) | ident }}
{% endfor %}
{% endfor %}
FROM {{ ('letters' ~ letters | length) | ident }}
