"""Benchmark: `relic check` on a generated pack of 10,000 entities, against check-jsonschema.

The pack must pass the check (the bench stops if it does not): a refused pack stops early and
its time says nothing. relic check is the whole preflight, so it also sets every text box of
every printed face (9,000 cards in two languages) at its smallest size.

check-jsonschema does schema validation alone on the same files (with one bundled schema);
relic check does loading with positions, schema validation, references, text and table checks.
Both run as fresh processes, best of N runs. Usage: python bench/check_bench.py [--entities N]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_SCHEMAS = ROOT / "tests" / "fixtures" / "schemas"
BIN = Path(sys.executable).parent


def generate(pack: Path, entities: int, per_file: int = 100) -> list[Path]:
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        f"id: {pack.name}\ntitle: {{ru: Тест, en: Test}}\nlanguages: [ru, en]\n"
        # printed with a layout of the project (without one the check refuses the pack)
        "print:\n  components:\n    critter: {format: poker, template: card}\n",
        "utf-8",
    )
    shutil.copytree(FIXTURE_SCHEMAS, pack / "schemas")
    files = []
    lairs = max(1, entities // 10)
    # one copy of each critter: 10,000 entities print 9,000 components, under the bound of
    # 10,000 that `relic check` holds a pack to
    for start in range(0, entities, per_file):
        lines = []
        for i in range(start, min(start + per_file, entities)):
            if i < lairs:
                name = f"{{ru: Логово {i}, en: Lair {i}}}"
                lines.append(f"- id: lair-{i}\n  kind: lair\n  name: {name}\n")
            else:
                name = f"{{ru: Тварь {i}, en: Critter {i}}}"
                lines.append(
                    f"- id: critter-{i}\n  kind: critter\n  name: {name}\n"
                    f"  speed: {i % 5}\n  count: 1\n  dice: 2d6+{i % 3}\n"
                    f"  lair: lair-{i % lairs}\n"
                )
        path = pack / f"entities-{start // per_file:04d}.yaml"
        path.write_text("".join(lines), "utf-8")
        files.append(path)
    return files


def bundled_schema(out: Path) -> Path:
    """One self-contained schema (a list of lairs or critters) for check-jsonschema."""
    defs = json.loads((ROOT / "schemas" / "defs.json").read_text())["definitions"]
    kinds = {}
    for kind in ("critter", "lair"):
        text = (FIXTURE_SCHEMAS / "kinds" / f"{kind}.json").read_text()
        schema = json.loads(text.replace("../defs.json#/definitions/", "#/definitions/"))
        for key in ("$id", "$schema"):
            schema.pop(key, None)
        kinds[kind] = schema
    bundle = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {**defs, **kinds},
        "type": "array",
        "items": {"anyOf": [{"$ref": "#/definitions/critter"}, {"$ref": "#/definitions/lair"}]},
    }
    out.write_text(json.dumps(bundle), "utf-8")
    return out


def best_of(cmd: list[str], runs: int) -> tuple[float, int]:
    best, code = float("inf"), 0
    for _ in range(runs):
        start = time.perf_counter()
        code = subprocess.run(cmd, capture_output=True).returncode
        best = min(best, time.perf_counter() - start)
    return best, code


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entities", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pack = Path(tmp) / "generated"
        files = generate(pack, args.entities)
        schema = bundled_schema(Path(tmp) / "bundle.json")
        refused = subprocess.run([str(BIN / "relic"), "check", str(pack)], capture_output=True,
                                 text=True)
        if refused.returncode != 0:  # timing a refused pack would say nothing of a check
            raise SystemExit("check_bench: relic check refuses the generated pack:\n"
                             + "\n".join(refused.stderr.splitlines()[:5]))
        relic, relic_code = best_of([str(BIN / "relic"), "check", str(pack)], args.runs)
        cjs_cmd = [str(BIN / "check-jsonschema"), "--schemafile", str(schema), *map(str, files)]
        cjs, cjs_code = best_of(cjs_cmd, args.runs)
    print(f"entities: {args.entities} in {len(files)} files")
    print(f"relic check:       {relic:.2f} s (exit {relic_code})")
    print(f"check-jsonschema:  {cjs:.2f} s (exit {cjs_code}, schema validation only)")
    print(f"ratio relic/check-jsonschema: {relic / cjs:.2f}")
    print(f"target < 2 s: {'met' if relic < 2 else 'NOT met'}; "
          f"not slower than check-jsonschema: {'met' if relic <= cjs else 'NOT met'}")


if __name__ == "__main__":
    main()
