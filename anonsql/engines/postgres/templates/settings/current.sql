{# A setting's value in this session (to set it back when a run ends). #}
SELECT current_setting({{ name | lit }})
