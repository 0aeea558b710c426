"""Identity-reserved publishing (seed 003)."""
