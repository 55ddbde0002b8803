"""Structural checks of a SARIF 2.1.0 log, after the OASIS schema (sarif-schema-2.1.0.json).

No package on PyPI ships the official schema file, so the parts of it that `relic check --format
sarif` uses are restated here as a draft-07 JSON Schema (same property names, types, enums and
minimums) and validated with jsonschema; URIs are checked against RFC 3986 by hand.
"""

from __future__ import annotations

import re
from typing import Any

from jsonschema import Draft7Validator

_URI_REFERENCE = re.compile(r"^([A-Za-z0-9\-._~!$&'()*+,;=:@/?#\[\]]|%[0-9A-Fa-f]{2})*$")

SARIF_SUBSET = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "$schema": {"type": "string", "format": "uri"},
        "version": {"enum": ["2.1.0"]},
        "runs": {"type": ["array", "null"], "minItems": 0, "items": {"$ref": "#/definitions/run"}},
    },
    "definitions": {
        "run": {
            "type": "object",
            "required": ["tool"],
            "properties": {
                "tool": {
                    "type": "object",
                    "required": ["driver"],
                    "properties": {"driver": {"$ref": "#/definitions/toolComponent"}},
                },
                "results": {"type": ["array", "null"], "items": {"$ref": "#/definitions/result"}},
            },
        },
        "toolComponent": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string"},
                "informationUri": {"type": "string", "format": "uri"},
                "rules": {
                    "type": "array",
                    "uniqueItems": True,
                    "items": {
                        "type": "object",
                        "required": ["id"],
                        "properties": {"id": {"type": "string"}},
                    },
                },
            },
        },
        "result": {
            "type": "object",
            "required": ["message"],
            "properties": {
                "ruleId": {"type": "string"},
                "ruleIndex": {"type": "integer", "minimum": -1},
                "level": {"enum": ["none", "note", "warning", "error"]},
                "message": {"$ref": "#/definitions/message"},
                "locations": {
                    "type": "array",
                    "minItems": 0,
                    "uniqueItems": True,
                    "items": {"$ref": "#/definitions/location"},
                },
            },
        },
        "message": {
            "type": "object",
            "anyOf": [{"required": ["text"]}, {"required": ["id"]}],
            "properties": {"text": {"type": "string"}, "id": {"type": "string"}},
        },
        "location": {
            "type": "object",
            "properties": {
                "physicalLocation": {
                    "type": "object",
                    "anyOf": [{"required": ["address"]}, {"required": ["artifactLocation"]}],
                    "properties": {
                        "artifactLocation": {
                            "type": "object",
                            "properties": {"uri": {"type": "string", "format": "uri-reference"}},
                        },
                        "region": {
                            "type": "object",
                            "properties": {
                                "startLine": {"type": "integer", "minimum": 1},
                                "startColumn": {"type": "integer", "minimum": 1},
                            },
                        },
                    },
                }
            },
        },
    },
}


def assert_valid_sarif(log: Any) -> None:
    errors = [e.message for e in Draft7Validator(SARIF_SUBSET).iter_errors(log)]
    assert not errors, errors
    for run in log["runs"]:
        rules = [rule["id"] for rule in run["tool"]["driver"].get("rules", [])]
        for result in run.get("results") or []:
            assert result["message"]["text"], "a result has a message"
            if "ruleIndex" in result:
                assert rules[result["ruleIndex"]] == result["ruleId"]
            for location in result.get("locations", []):
                uri = location["physicalLocation"]["artifactLocation"]["uri"]
                assert _URI_REFERENCE.match(uri), f"not an RFC 3986 URI reference: {uri!r}"
