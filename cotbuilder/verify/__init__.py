"""verify stage."""
