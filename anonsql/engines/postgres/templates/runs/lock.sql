{# Held by a run's session while it runs: a killed run's session ends and releases it. #}
SELECT pg_advisory_lock({{ key | lit }})
