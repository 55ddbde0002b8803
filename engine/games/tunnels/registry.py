"""The tunnels' own rule registry: `@rule("trace-id")` on every rule function."""

from __future__ import annotations

from engine.core.rules import RuleRegistry

RULES = RuleRegistry("tunnels")
rule = RULES.rule
