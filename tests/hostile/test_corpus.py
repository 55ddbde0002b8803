"""The hostile corpus (corpus.py): each case states its exact diagnostics or behaviour, and none
ends with a traceback, `error[internal]`, a hang, more than 1 GiB resident, a network call or
an open of anything outside its pack.

Cases run in batches, many per child process (runner.py), so the corpus stays fast: a test asks
for its case's result, which runs the batch holding it once per test process.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.hostile.corpus import Case, by_name, cases
from tests.hostile.harness import assert_clean, nobody, remove, run_batch, scratch

ROOT = Path(__file__).resolve().parents[2]
BATCH = 12
CASES = cases()


def _batches() -> dict[str, tuple[str, ...]]:
    """Case name -> the names run with it in one child (same user, in corpus order)."""
    groups: dict[str, list[str]] = {}
    for case in CASES:
        groups.setdefault(case.user, []).append(case.name)
    out: dict[str, tuple[str, ...]] = {}
    for names in groups.values():
        for i in range(0, len(names), BATCH):
            chunk = tuple(names[i:i + BATCH])
            out.update(dict.fromkeys(chunk, chunk))
    return out


BATCHES = _batches()


class Corpus:
    """Builds case folders and runs their batches on demand, once each."""

    def __init__(self) -> None:
        self.folder = scratch()
        self.results: dict[str, dict] = {}
        self.cases = by_name()

    def case_dir(self, name: str) -> Path:
        return self.folder / name

    def _fill(self, case: Case, text: str) -> str:
        where = self.case_dir(case.name)
        return (text.replace("{pack}", str(where / "mini")).replace("{case}", str(where)))

    def result(self, name: str) -> dict:
        if name not in self.results:
            self._run(BATCHES[name])
        return self.results[name]

    def _run(self, names: tuple[str, ...]) -> None:
        jobs = []
        for name in names:
            case = self.cases[name]
            where = self.case_dir(name)
            where.mkdir()
            case.make(where)
            jobs.append({
                "name": name,
                "argv": [self._fill(case, a) for a in case.argv],
                "allowed": [self._fill(case, a) for a in case.allowed],
                "timeout": case.timeout,
            })
        user = self.cases[names[0]].user
        results, _, code = run_batch(jobs, self.folder / f"audit-{names[0]}.log", user=user)
        assert code == 0 and len(results) == len(jobs), (code, results[-1:])
        self.results.update({r["name"]: r for r in results})

    def close(self) -> None:
        remove(self.folder)


@pytest.fixture(scope="module")
def corpus():
    found = Corpus()
    yield found
    found.close()


def test_the_corpus_is_large_and_covers_every_class() -> None:
    assert len(CASES) >= 60
    prefixes = {case.name.split("-")[0] for case in CASES}
    assert prefixes >= {"fs", "out", "pos", "bound", "pre", "fmt", "mode", "held", "audit"}


def _found(result: dict, case_dir: Path) -> list[tuple[str, str, int, int]]:
    items = json.loads(result["stdout"] or "[]")
    out = []
    for d in items:
        path = os.path.normpath(os.path.join(ROOT, d["file"]))
        out.append((d["code"], os.path.relpath(path, case_dir), d["line"], d["col"]))
    return sorted(out)


@pytest.mark.parametrize("name", [case.name for case in CASES])
def test_hostile_case(corpus: Corpus, name: str) -> None:
    case = corpus.cases[name]
    if case.user == "nobody" and os.geteuid() == 0 and (nobody() is None
                                                        or shutil.which("setpriv") is None):
        pytest.skip("running as root, and no 'nobody' user or no setpriv (util-linux) to drop "
                    "to: as root every file is readable, so permissions cannot be tested")
    result = corpus.result(name)
    assert_clean(result)
    if name == "audit-sees-outside":
        assert case.verify is not None
        case.verify(result, corpus.case_dir(name))
        return
    assert result["violations"] == [], result["violations"]
    assert result["code"] == case.code, (result["stdout"][-3000:], result["stderr"][-3000:])
    if case.diagnostics is not None:
        assert _found(result, corpus.case_dir(name)) == sorted(case.diagnostics)
    if case.verify is not None:
        case.verify(result, corpus.case_dir(name))
