SELECT pg_advisory_unlock({{ key | lit }})
