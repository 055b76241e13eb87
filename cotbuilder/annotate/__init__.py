"""annotate stage."""
