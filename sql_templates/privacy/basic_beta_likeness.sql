{% include "privacy/_beta_likeness.sql" %}
