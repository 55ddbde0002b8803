"""Check plug-ins: each module here with `check(model) -> Iterable[Diagnostic]` runs in `relic check`."""
