"""Games the engine knows, by ruleset name."""
