"""decontam stage."""
