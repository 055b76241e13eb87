"""cotbuilder: verified AscendC chain-of-thought training data."""

__version__ = "0.1.0"
