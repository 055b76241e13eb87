"""dedup stage."""
