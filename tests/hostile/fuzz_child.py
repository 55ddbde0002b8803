"""The child process of the random-pack property test (test_random_packs.py).

Hypothesis builds random pack folders: random names (Unicode, newlines, the names relic looks
for), random file types (regular files, folders, symbolic links to anywhere, named pipes) and
random contents (YAML-like token soup, raw bytes). For each, `relic check --format json` runs
in-process under the audit hook of runner.py, with a SIGALRM time-out, and must: return an exit
code (0, 1 or 2) with JSON on stdout, raise nothing, finish in time, and open nothing outside
the pack. Derandomized: the same examples every run. Prints one JSON line with the outcome.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.hostile.runner import Auditor, _on_alarm

NAMES = st.one_of(
    st.sampled_from(["pack.yaml", "x.yaml", "trace.yaml", "trace-b.yaml", "schemas", "kinds",
                     "rules", "ru", "01-a.md", "print", "formats.yaml", "a.json", "defs.json",
                     "sub", "..yaml", ".hidden.yaml", "x\n::warning file=e::y.yaml",
                     "a%b,c:d.yaml", "ж.yaml", "\u202ertl.yaml", "-", "README"]),
    st.text(st.characters(blacklist_characters="/\x00", blacklist_categories=("Cs",)),
            min_size=1, max_size=12).filter(lambda s: s not in (".", "..")),
)
TARGETS = st.sampled_from(["..", ".", "/", "/etc/passwd", "/etc", "/dev/zero",
                           "../outside/secret.yaml", "../outside", "x.yaml", "sub", "nowhere",
                           "self", "../../..", "kinds/a.json"])
TOKENS = st.sampled_from([
    "- ", "id: ", "kind: ", "lair", "critter", "x", "name: ", "{ru: a, en: b}", "\n", "  ",
    "[", "]", "{", "}", ": ", ", ", "&a ", "*a", "!!python/object:os.system ", "!x ", "'",
    '"', "?0", "? ", "9" * 50, "1000000d6", "count: ", "1000000000", "needs: [x]", "\x00",
    "\x1b[31m", "\u200b", "\ufeff", "{{ 7*7 }}", "<b>", "---\n", "...", "#", "|\n", "\t",
    '{"type": "object"}', "{bad", '{"$ref": "http://example.invalid/"}',
])
CONTENT = st.one_of(st.lists(TOKENS, max_size=40).map("".join).map(str.encode),
                    st.binary(max_size=200))
ENTRY = st.tuples(
    st.lists(NAMES, min_size=1, max_size=3),
    st.sampled_from(["file", "file", "dir", "link", "fifo"]),
    CONTENT,
    TARGETS,
)
MANIFEST = "id: pack\ntitle: {ru: Пак, en: Pack}\nlanguages: [ru, en]\n"


def make_tree(pack: Path, entries: list) -> None:
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text(MANIFEST, "utf-8")
    for parts, kind, content, target in entries:
        path = pack.joinpath(*parts)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.is_symlink() or path.is_file() or path.exists():
                continue
            if kind == "file":
                path.write_bytes(content)
            elif kind == "dir":
                path.mkdir()
            elif kind == "link":
                os.symlink(target, path)
            else:
                os.mkfifo(path)
        except OSError:  # a name the file system refuses, a parent that is a file, ...
            continue


def main() -> int:
    examples = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    base = Path(tempfile.mkdtemp(prefix="relic-fuzz-"))
    outside = base / "outside"
    outside.mkdir()
    (outside / "secret.yaml").write_text("- {id: secret, kind: lair, name: {ru: SECRET}}\n")
    log = base / "audit.log"
    auditor = Auditor(os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    import pipeline.cli

    sys.addaudithook(auditor.hook)
    signal.signal(signal.SIGALRM, _on_alarm)
    seen = {"examples": 0, "codes": {}}
    counter = iter(range(10**9))

    @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.lists(ENTRY, max_size=12))
    def check_never_breaks(entries: list) -> None:
        folder = base / f"ex{next(counter)}"
        pack = folder / "pack"
        make_tree(pack, entries)
        os.symlink("../outside", folder / "outside")  # what ../outside means in the pack
        auditor.allowed = (os.path.realpath(pack),)
        auditor.case = folder.name
        out = io.StringIO()
        signal.alarm(10)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                code = pipeline.cli.main(["check", str(pack), "--format", "json"])
        finally:
            signal.alarm(0)
            auditor.case = ""
        assert code in (0, 1, 2), code
        text = out.getvalue()
        assert "error[internal]" not in text and "check-crashed" not in text, text
        json.loads(text)  # the report is whole, valid JSON
        seen["examples"] += 1
        seen["codes"][str(code)] = seen["codes"].get(str(code), 0) + 1
        violations = [json.loads(line) for line in log.read_text().splitlines()]
        mine = [v for v in violations if v["case"] == folder.name]
        assert not mine, mine
        shutil.rmtree(folder, ignore_errors=True)

    try:
        check_never_breaks()
        outcome = {"ok": True, **seen}
    except BaseException as exc:  # reported to the parent, which fails with it
        import traceback

        outcome = {"ok": False, "error": traceback.format_exc()[-6000:], **seen,
                   "exception": type(exc).__name__}
    finally:
        shutil.rmtree(base, ignore_errors=True)
    sys.stdout.write(json.dumps(outcome) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
