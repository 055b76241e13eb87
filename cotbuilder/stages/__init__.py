"""The stage core: the Stage interface, the registry, the driver and the executors (see docs/stages.md)."""
