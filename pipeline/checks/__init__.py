"""Check plug-ins: each module here with `check(model)` runs inside `relic check`.

`check(model: Model) -> Iterable[Diagnostic]` receives the resolved model of a clean pack.
"""
