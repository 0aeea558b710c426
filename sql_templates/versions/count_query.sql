SELECT COUNT(*) FROM ({{ query }}) AS v
