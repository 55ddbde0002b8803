"""The haunted house's own rule registry: `@rule("trace-id")` marks the function that carries
out a fact or decision of `content/haunted-house/trace*.yaml`."""

from __future__ import annotations

from engine.core.rules import RuleRegistry

RULES = RuleRegistry("haunted-house")
rule = RULES.rule
