"""The hostile corpus: packs a careless or hostile contributor could hand to CI's `relic check`.

Every case builds its pack in a folder of its own (nothing huge is stored: big files are sparse or
generated), runs `relic` in the child process `runner.py` under an audit hook, and states what
it must give: the exit code and the exact diagnostics (code, file, line, column) of `relic check
--format json`, or a behaviour checked on the output. Whatever a case states, none may end with
a traceback, `error[internal]`, a time-out, more than 1 GiB resident, a network call, or an open
of anything outside its pack (see test_corpus.py).

Layout of a case folder: `mini/` (the pack: the fixture pack `tests/fixtures/packs/valid/mini`
with its schemas copied in), `outside/` (files beside the pack that must never be read:
`secret.yaml`, a `pack.yaml`, a `schemas/` folder) and, for builds, `out/` and `cache/`.

Kill -9 during rendering is `tests/cards/test_safety.py::
test_killing_a_build_leaves_the_previous_outputs_intact` (not repeated here); this corpus adds a
kill during writing and a kill between the two renames that swap a build in.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "fixtures" / "packs" / "valid" / "mini"
SCHEMAS = ROOT / "tests" / "fixtures" / "schemas"
CARDS_MINI = ROOT / "tests" / "cards" / "fixtures" / "mini"
SECRET = "SECRET-TEXT-OUTSIDE"

Diag = tuple[str, str, int, int]  # code, file (relative to the case folder), line, column


@dataclass(frozen=True)
class Case:
    name: str
    what: str  # the class of hostile input, and what it must give
    make: Callable[[Path], None]
    code: int = 1
    diagnostics: tuple[Diag, ...] | None = None  # exact and complete, when given
    argv: tuple[str, ...] = ("check", "{pack}", "--format", "json")
    verify: Callable[[dict, Path], None] | None = None  # a further check of the result
    user: str = "root"  # "nobody": run as an unprivileged user (permissions mean something)
    allowed: tuple[str, ...] = ("{pack}",)
    timeout: int = 20
    kill_on: dict | None = None
    warnings_ok: bool = field(default=True)


# ----- building packs ------------------------------------------------------------------------


def base(case: Path, schemas: bool = True) -> Path:
    """The fixture pack `mini` (4 entities of 3 kinds, one table) and the `outside` folder."""
    pack = case / "mini"
    pack.mkdir(parents=True)
    for name in ("pack.yaml", "critters.yaml", "lairs.yaml", "tables.yaml"):
        shutil.copyfile(MINI / name, pack / name)
    if schemas:
        shutil.copytree(SCHEMAS, pack / "schemas")
    outside = case / "outside"
    outside.mkdir()
    (outside / "secret.yaml").write_text(
        f"- id: secret\n  kind: lair\n  name: {{ru: {SECRET}}}\n", "utf-8")
    (outside / "pack.yaml").write_text(f"id: mini\ntitle: {{ru: {SECRET}}}\nlanguages: [ru]\n")
    shutil.copytree(SCHEMAS, outside / "schemas")
    return pack


def write(path: Path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, "utf-8")


def files(**contents: str | bytes) -> Callable[[Path], None]:
    """The base pack with files added or replaced (`__` in a name stands for `/`)."""
    def make(case: Path) -> None:
        pack = base(case)
        for name, text in contents.items():
            write(pack / name.replace("__", "/"), text)
    return make


def critters(extra: str = "", replace: tuple[str, str] = ("", "")) -> str:
    text = (MINI / "critters.yaml").read_text("utf-8")
    if replace[0]:
        text = text.replace(*replace)
    return text + extra


def with_base(step: Callable[[Path], None]) -> Callable[[Path], None]:
    def make(case: Path) -> None:
        step(base(case))
    return make


def fifo(name: str) -> Callable[[Path], None]:
    def step(pack: Path) -> None:
        (pack / name).parent.mkdir(parents=True, exist_ok=True)
        if (pack / name).exists():
            (pack / name).unlink()
        os.mkfifo(pack / name)
    return with_base(step)


def link(name: str, target: str) -> Callable[[Path], None]:
    def step(pack: Path) -> None:
        where = pack / name
        where.parent.mkdir(parents=True, exist_ok=True)
        if where.is_symlink() or where.is_file():
            where.unlink()
        elif where.is_dir():
            shutil.rmtree(where)
        os.symlink(target, where)
    return with_base(step)


def unix_socket(pack: Path) -> None:
    here = os.getcwd()
    os.chdir(pack)  # socket paths are short; bind the name relative to the pack
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind("s.yaml")
        sock.close()
    finally:
        os.chdir(here)


def unreadable(name: str) -> Callable[[Path], None]:
    def step(pack: Path) -> None:
        target = pack / name
        if not target.exists():
            target.mkdir(parents=True)
            write(target / "lairs.yaml", "- id: cave\n  kind: lair\n  name: {ru: Пещера}\n")
        os.chmod(target, 0)
    return with_base(step)


def deep_folders(pack: Path) -> None:
    folder = pack
    for _ in range(200):
        folder = folder / "d"
    write(folder / "more.yaml", "- id: burrow\n  kind: lair\n  name: {ru: Нора2, en: Burrow}\n")


def duplicate_folder(pack: Path) -> None:
    (pack / "a").mkdir()
    shutil.move(pack / "lairs.yaml", pack / "a" / "lairs.yaml")
    os.symlink("a", pack / "b")


def link_inside(pack: Path) -> None:
    (pack / "rules").mkdir()
    shutil.move(pack / "lairs.yaml", pack / "rules" / "lairs-data.yaml")
    os.symlink("rules/lairs-data.yaml", pack / "lairs.yaml")


def huge_sparse(pack: Path) -> None:
    with open(pack / "huge.yaml", "wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # 50 MB that take no disk


def chain_outside(pack: Path) -> None:
    os.symlink("../outside/secret.yaml", pack / "b.yaml")
    os.symlink("b.yaml", pack / "a.yaml")


# ----- content ---------------------------------------------------------------------------------

LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(8)
)
GEM_SCHEMA = json.dumps({
    "$schema": "http://json-schema.org/draft-07/schema#",
    "$id": "relic://schemas/kinds/gem.json",
    "description": "A test kind counted with the shared count definition.",
    "type": "object", "additionalProperties": False, "required": ["id", "kind"],
    "properties": {
        "id": {"$ref": "../defs.json#/definitions/id", "description": "Id."},
        "kind": {"const": "gem", "description": "Kind."},
        "count": {"$ref": "../defs.json#/definitions/count", "description": "Copies."},
        "dice": {"$ref": "../defs.json#/definitions/dice", "description": "Dice."},
        "image": {"type": "string", "description": "An image path (deliberately unchecked)."},
    },
})
REDOS_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
    "description": "A test kind whose pattern backtracks exponentially on 'aaa...a!'.",
    "properties": {"id": {"type": "string"}, "kind": {"const": "x"},
                   "a": {"type": "string", "pattern": "^(a|aa)+$"}},
}
PRINT_GEMS = "id: mini\ntitle: {ru: Мини, en: Mini}\nlanguages: [ru, en]\n" \
             "print:\n  components:\n    critter: {format: poker, template: card}\n" \
             "    gem: {format: poker, template: card}\n"
CHECKS = """- id: {a}
  kind: check
  name: {{ru: Проверка, en: A check}}
  subject: statue
  action: study
  text: {{ru: Текст., en: Text.}}
  needs: [{na}]
- id: {b}
  kind: check
  name: {{ru: Проверка два, en: Check two}}
  subject: statue
  action: study
  text: {{ru: Текст., en: Text.}}
  needs: [{nb}]
"""


def gems(body: str, manifest: str = PRINT_GEMS) -> Callable[[Path], None]:
    return files(**{"schemas__kinds__gem.json": GEM_SCHEMA, "gems.yaml": body,
                    "pack.yaml": manifest})


def manifest(text: str) -> Callable[[Path], None]:
    return files(**{"pack.yaml": (MINI / "pack.yaml").read_text("utf-8").replace(
        "    critter: {format: poker, template: card}\n", text)})


def one_line_list(pack: Path) -> None:
    write(pack / "wrong.yaml", "[" + ", ".join(["1"] * 330_000) + "]\n")  # about 1 MB


# ----- verifying outputs ---------------------------------------------------------------------


def github_lines_are_escaped(result: dict, case: Path) -> None:
    lines = result["stdout"].splitlines()
    assert len(lines) == 1 and lines[0].startswith("::error file="), lines  # one, not forged
    assert "x\\n%3A%3Awarning file=evil%3A%3Aforged.yaml,line=1,col=3," in lines[0], lines


def github_properties_escaped(result: dict, case: Path) -> None:
    [line] = result["stdout"].splitlines()
    assert "file=" in line and "a%25b%2Cc%3Ad.yaml,line=1,col=3" in line, line


def hint_shows_zero_width(result: dict, case: Path) -> None:
    out = result["stdout"]
    assert "unknown kind 'lai\\u200br'" in out and "did you mean 'lair'?" in out, out
    assert "\u200b" not in out


def ansi_is_escaped(result: dict, case: Path) -> None:
    out = result["stdout"]
    assert "\x1b" not in out and "\\x1b[31mred" in out, out


def sarif_is_valid(result: dict, case: Path) -> None:
    from tests.hostile.sarif import assert_valid_sarif

    log = json.loads(result["stdout"])
    assert_valid_sarif(log)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in log["runs"][0]["results"]]
    assert any("%0A" in uri for uri in uris) and any("%FF" in uri for uri in uris), uris


def json_holds_bad_bytes(result: dict, case: Path) -> None:
    found = json.loads(result["stdout"])
    assert any(d["file"].endswith("bad\\xffname.yaml") for d in found), found


def capped(result: dict, case: Path) -> None:
    found = json.loads(result["stdout"])
    wrong = [d for d in found if d["file"].endswith("wrong.yaml")]
    assert len(wrong) == 101, len(wrong)
    assert [d["code"] for d in wrong[:100]] == ["not-an-entity"] * 100
    assert wrong[100]["code"] == "more-diagnostics"
    assert wrong[100]["message"] == (
        "329900 more problems in this file are not shown; the first 100 are")


def secret_never_shown(result: dict, case: Path) -> None:
    assert SECRET not in result["stdout"] + result["stderr"]


def ruleset_hint(result: dict, case: Path) -> None:
    [found] = json.loads(result["stdout"])
    assert found["hint"] == "did you mean 'catacombs'?", found


def build_refuses_the_same(result: dict, case: Path) -> None:
    assert "pack.yaml:6:23: error[unknown-format]: unknown format 'postcard'" in result["stderr"]


def outputs_are_0644(result: dict, case: Path) -> None:
    made = [p for p in (case / "out").rglob("*") if p.is_file()]
    assert made, "the build wrote nothing"
    modes = {oct(p.stat().st_mode & 0o777) for p in made}
    assert modes == {"0o644"}, modes


def audit_sees_outside(result: dict, case: Path) -> None:
    """The audit hook itself: `relic replay FILE` reads the file it is given."""
    assert any("/etc/hostname" in v["detail"] for v in result["violations"])


# ----- the cases -------------------------------------------------------------------------------


def cases() -> list[Case]:
    c = Case
    return [
        # 1. the file system of a pack
        c("fs-folder-named-yaml", "a folder named x.yaml is a folder: read as one, no error",
          with_base(lambda p: (p / "extra.yaml").mkdir()), 0, ()),
        c("fs-fifo-entity-file", "a named pipe is never opened (it would block for ever)",
          fifo("f.yaml"), 1, (("not-a-file", "mini/f.yaml", 1, 1),)),
        c("fs-fifo-manifest", "pack.yaml as a named pipe", fifo("pack.yaml"), 1,
          (("not-a-file", "mini/pack.yaml", 1, 1),)),
        c("fs-fifo-schema", "a named pipe among the pack's schemas", fifo("schemas/kinds/x.json"),
          1, (("not-a-file", "mini/schemas/kinds/x.json", 1, 1),)),
        c("fs-fifo-chapter", "a named pipe as a rulebook chapter", fifo("rules/ru/01-x.md"), 1,
          (("not-a-file", "mini/rules/ru/01-x.md", 1, 1),)),
        c("fs-fifo-trace", "a named pipe as the rules trace", fifo("trace.yaml"), 1,
          (("not-a-file", "mini/trace.yaml", 1, 1),)),
        c("fs-fifo-print-data", "a named pipe as the pack's print formats",
          fifo("print/formats.yaml"), 1, (("not-a-file", "mini/print/formats.yaml", 1, 1),)),
        c("fs-socket", "a socket named s.yaml", with_base(unix_socket), 1,
          (("not-a-file", "mini/s.yaml", 1, 1),)),
        c("fs-symlink-loop", "two links that lead to each other",
          with_base(lambda p: (os.symlink("l2.yaml", p / "l1.yaml"),
                               os.symlink("l1.yaml", p / "l2.yaml"))), 1,
          (("symlink-loop", "mini/l1.yaml", 1, 1), ("symlink-loop", "mini/l2.yaml", 1, 1))),
        c("fs-symlink-to-itself", "a link to itself", link("self.yaml", "self.yaml"), 1,
          (("symlink-loop", "mini/self.yaml", 1, 1),)),
        c("fs-folder-loop", "a link to the folder that holds it", link("sub/up", ".."), 1,
          (("symlink-loop", "mini/sub/up", 1, 1),)),
        c("fs-link-to-root", "a link to / is not walked", link("root", "/"), 1,
          (("link-outside", "mini/root", 1, 1),)),
        c("fs-broken-link", "a link to nothing", link("gone.yaml", "nowhere.yaml"), 1,
          (("broken-link", "mini/gone.yaml", 1, 1),)),
        c("fs-unreadable-file", "a file the user may not read (run as nobody)",
          unreadable("lairs.yaml"), 1, (("unreadable", "mini/lairs.yaml", 1, 1),),
          user="nobody"),
        c("fs-unreadable-folder", "a folder the user may not list (run as nobody)",
          unreadable("more"), 1, (("unreadable", "mini/more", 1, 1),), user="nobody"),
        c("fs-link-inside-pack", "a link to a file elsewhere in the pack is followed",
          with_base(link_inside), 0, ()),
        c("fs-folder-linked-twice", "a second way to a folder: read once, with a warning",
          with_base(duplicate_folder), 0, (("duplicate-folder", "mini/b", 1, 1),)),
        c("fs-deep-folders", "200 nested folders: walked without recursion",
          with_base(deep_folders), 0, (("unused-entity", "mini/" + "d/" * 200 + "more.yaml",
                                        1, 7),)),
        c("fs-manifest-is-a-folder", "pack.yaml as a folder: the pack has no manifest",
          with_base(lambda p: ((p / "pack.yaml").unlink(), (p / "pack.yaml").mkdir())), 1,
          (("not-a-file", "mini/pack.yaml", 1, 1),)),
        c("fs-check-a-fifo", "relic check on a named pipe: a usage error, no hang",
          with_base(lambda p: os.mkfifo(p.parent / "pipe")), 2,
          (("no-packs", "pipe", 1, 1),), argv=("check", "{case}/pipe", "--format", "json"),
          allowed=("{case}/pipe",)),
        c("fs-check-a-file", "relic check on a file, not a folder: a usage error",
          with_base(lambda p: None), 2, (("no-packs", "mini/lairs.yaml", 1, 1),),
          argv=("check", "{pack}/lairs.yaml", "--format", "json")),
        # 2. never read outside the project
        c("out-link-to-etc-passwd", "a link to a system file is refused before it is opened",
          link("passwd.yaml", "/etc/passwd"), 1, (("link-outside", "mini/passwd.yaml", 1, 1),),
          verify=secret_never_shown),
        c("out-link-to-secret", "a link to a file beside the pack",
          link("s.yaml", "../outside/secret.yaml"), 1,
          (("link-outside", "mini/s.yaml", 1, 1),), verify=secret_never_shown),
        c("out-link-folder", "a link to a folder beside the pack is not walked",
          link("more", "../outside"), 1, (("link-outside", "mini/more", 1, 1),),
          verify=secret_never_shown),
        c("out-link-manifest", "pack.yaml linked from outside",
          link("pack.yaml", "../outside/pack.yaml"), 1,
          (("link-outside", "mini/pack.yaml", 1, 1),), verify=secret_never_shown),
        c("out-link-schemas", "the pack's schemas folder linked from outside",
          link("schemas", "../outside/schemas"), 1,
          (("link-outside", "mini/schemas", 1, 1),)),
        c("out-link-chain", "a link to a link that leads outside", with_base(chain_outside), 1,
          (("link-outside", "mini/a.yaml", 1, 1), ("link-outside", "mini/b.yaml", 1, 1)),
          verify=secret_never_shown),
        c("out-asset-traversal", "an image path climbing out with '..' (fixture asset-escape)",
          files(**{"critters.yaml": critters("  image: ../../etc/passwd\n")}), 1,
          (("schema-pattern", "mini/critters.yaml", 6, 10),)),
        c("out-asset-absolute-and-url", "absolute, file: and http: images in an unchecked field",
          gems("- {id: g1, kind: gem, image: /etc/passwd}\n"
               "- {id: g2, kind: gem, image: 'file:///etc/passwd'}\n"
               "- {id: g3, kind: gem, image: 'http://example.invalid/x.png'}\n"), 1,
          (("unsafe-asset", "mini/gems.yaml", 1, 30), ("unsafe-asset", "mini/gems.yaml", 2, 30),
           ("unsafe-asset", "mini/gems.yaml", 3, 30))),
        c("out-schema-ref-url", "a pack schema whose $ref is a URL: nothing is fetched",
          files(**{"schemas__kinds__x.json": json.dumps(
              {"type": "object", "properties": {"a": {"$ref": "http://example.invalid/x"}}}),
              "xs.yaml": "- {id: q, kind: x, a: 1}\n"}), 1,
          (("bad-schema", "mini/schemas/kinds/x.json", 1, 1),)),
        # 3. exact positions
        c("pos-nul", "a NUL byte, at its own line and column",
          files(**{"critters.yaml": critters(replace=("speed: 2", "speed: 2\x00"))}), 1,
          (("control-character", "mini/critters.yaml", 4, 11),)),
        c("pos-escape-after-cyrillic", "ESC after Cyrillic text: columns count characters",
          files(**{"lairs.yaml": "- id: den\n  kind: lair\n  name: {ru: Нора\x1b, en: Den}\n"}),
          1, (("control-character", "mini/lairs.yaml", 3, 18),)),
        c("pos-del-after-crlf", "DEL in a CRLF file", files(**{
            "lairs.yaml": "- id: den\r\n  kind: lair\r\n  name: {ru: Нора, en: D\x7fen}\r\n"}),
          1, (("control-character", "mini/lairs.yaml", 3, 25),)),
        c("pos-c1-control", "a C1 control character (CSI)", files(**{
            "lairs.yaml": "- id: den\n  kind: lair\n\n\n  name: {ru: \x9bНора, en: Den}\n"}), 1,
          (("control-character", "mini/lairs.yaml", 5, 14),)),
        c("pos-long-integer", "an integer of 5,000 digits: bad-scalar at the value",
          files(**{"critters.yaml": critters(replace=("speed: 2", "speed: " + "9" * 5000))}), 1,
          (("bad-scalar", "mini/critters.yaml", 4, 10),)),
        c("pos-long-hex", "a hexadecimal integer too large to print",
          files(**{"critters.yaml": critters(replace=("speed: 2", "speed: 0x" + "f" * 5000))}),
          1, (("bad-scalar", "mini/critters.yaml", 4, 10),)),
        c("pos-long-tagged-integer", "!!int on a 5,000-digit string",
          files(**{"critters.yaml": critters(
              replace=("speed: 2", "speed: !!int '" + "7" * 5000 + "'"))}), 1,
          (("bad-scalar", "mini/critters.yaml", 4, 10),)),
        c("pos-ambiguous-key", "'{?0: x}' means different things to different YAML readers",
          files(**{"critters.yaml": critters("  notes: {?0: x}\n")}), 1,
          (("ambiguous-key", "mini/critters.yaml", 6, 11),)),
        # 4. bounds on work
        c("bound-count-billion", "count: 10^9 (the shared count has a maximum)",
          gems("- {id: g1, kind: gem, count: 1000000000}\n"), 1,
          (("schema-maximum", "mini/gems.yaml", 1, 30),)),
        c("bound-count-over-maximum", "count: 1001", gems("- {id: g1, kind: gem, count: 1001}\n"),
          1, (("schema-maximum", "mini/gems.yaml", 1, 30),)),
        c("bound-count-unbounded-kind", "a pack kind without a maximum: the pack total stops it",
          files(**{"critters.yaml": critters("  count: 1000000000\n")}), 1,
          (("too-many-components", "mini/pack.yaml", 6, 5),)),
        c("bound-total-components", "11 x 1000 printed copies: over the 10,000 of a pack",
          gems("".join(f"- {{id: g{i}, kind: gem, count: 1000}}\n" for i in range(11))), 1,
          (("too-many-components", "mini/pack.yaml", 6, 5),)),
        c("bound-dice-million", "1000000d6 is refused by the schema (at most 20 dice)",
          gems("- {id: g1, kind: gem, dice: 1000000d6}\n"), 1,
          (("schema-pattern", "mini/gems.yaml", 1, 29),)),
        c("bound-dice-modifier", "a dice modifier of 12 digits",
          gems("- {id: g1, kind: gem, dice: 1d6+999999999999}\n"), 1,
          (("schema-pattern", "mini/gems.yaml", 1, 29),)),
        c("bound-range-digits", "a table row with a 40-digit range",
          files(**{"tables.yaml": (MINI / "tables.yaml").read_text("utf-8").replace(
              'roll: "6"', 'roll: "6-' + "9" * 40 + '"')}), 1,
          (("schema-pattern", "mini/tables.yaml", 8, 14),)),
        c("bound-diagnostics-per-file", "a 1 MB one-line list of wrong values: 100 shown, "
          "then how many more", with_base(one_line_list), 1, None, verify=capped, timeout=60),
        c("bound-player-count", "players: {max: 10^9}", files(**{
            "pack.yaml": (MINI / "pack.yaml").read_text("utf-8") + "players: {max: 1000000000}\n"}),
          1, (("schema-maximum", "mini/pack.yaml", 7, 16),)),
        c("bound-pattern-backtracking", "a pack schema whose pattern backtracks for ever: "
          "matched under a time-out", files(**{
              "schemas__kinds__x.json": json.dumps(REDOS_SCHEMA),
              "xs.yaml": "".join(f"- {{id: q{i}, kind: x, a: {'a' * 40}!}}\n"
                                 for i in range(20))}), 1,
          tuple(("schema-pattern-timeout", "mini/xs.yaml", i + 1, 24 + (i >= 10))
                for i in range(20)),
          timeout=60),
        c("bound-nesting", "10^5 nested brackets", files(**{"deep.yaml": "[" * 100_000}), 1,
          (("nesting-limit", "mini/deep.yaml", 1, 65),)),
        c("bound-alias-bomb", "a billion laughs", files(**{"laughs.yaml": LAUGHS}), 1,
          (("alias-limit", "mini/laughs.yaml", 4, 36),)),
        c("bound-huge-file", "a 50 MB file is refused before it is read",
          with_base(huge_sparse), 1, (("file-too-large", "mini/huge.yaml", 1, 1),)),
        c("bound-schema-nesting", "a pack schema nested 100,000 deep",
          files(**{"schemas__kinds__x.json": '{"a": ' + "[" * 100_000}), 1,
          (("bad-schema", "mini/schemas/kinds/x.json", 1, 1),)),
        # 5. check refuses what build, sim or rulebook would refuse
        c("pre-needs-cycle", "two checks that each need the other",
          files(**{"checks.yaml": CHECKS.format(a="c-a", b="c-b", na="c-b", nb="c-a")}), 1,
          (("dependency-cycle", "mini/checks.yaml", 7, 11),)),
        c("pre-needs-itself", "a check that needs itself",
          files(**{"checks.yaml": CHECKS.format(a="c-a", b="c-b", na="c-a", nb="c-a")}), 1,
          (("dependency-cycle", "mini/checks.yaml", 7, 11),)),
        c("pre-needs-long-cycle", "a cycle through three checks", files(**{
            "checks.yaml": CHECKS.format(a="c-a", b="c-b", na="c-b", nb="c-c")
            + CHECKS.format(a="c-c", b="c-d", na="c-a", nb="c-a")}), 1,
          (("dependency-cycle", "mini/checks.yaml", 7, 11),)),
        c("pre-unknown-ruleset", "a ruleset no game is registered for (sim would refuse it)",
          files(**{"pack.yaml": (MINI / "pack.yaml").read_text("utf-8")
                   + "ruleset: catacomb\n"}), 1,
          (("unknown-ruleset", "mini/pack.yaml", 7, 10),), verify=ruleset_hint),
        c("pre-unknown-format", "a print format no library or pack defines",
          manifest("    critter: {format: postcard, template: card}\n"), 1,
          (("unknown-format", "mini/pack.yaml", 6, 23),)),
        c("pre-unknown-format-build", "relic build refuses it with the same diagnostic",
          manifest("    critter: {format: postcard, template: card}\n"), 1, None,
          argv=("build", "--pack", "mini", "--content", "{case}", "--out", "{case}/out",
                "--cache", "{case}/cache", "--lang", "ru", "--no-png", "--jobs", "1",
                "--quiet"), verify=build_refuses_the_same,
          allowed=("{pack}", "{case}/out", "{case}/cache")),
        c("pre-unknown-variant-format", "a variant's format", manifest(
            "    critter:\n      format: poker\n      template: card\n      variants:\n"
            "        - {field: speed, equals: 2, format: postcard}\n"), 1,
          (("unknown-format", "mini/pack.yaml", 10, 45),)),
        c("pre-unknown-paper", "a paper size no library defines", files(**{
            "pack.yaml": (MINI / "pack.yaml").read_text("utf-8").replace(
                "print:\n", "print:\n  paper: a9\n")}), 1,
          (("unknown-paper", "mini/pack.yaml", 5, 10),)),
        c("pre-unknown-template", "a template that does not exist",
          manifest("    critter: {format: poker, template: nothing}\n"), 1,
          (("unknown-template", "mini/pack.yaml", 6, 14),)),
        # 6. output formats cannot be forged
        c("fmt-github-newline-file", "a file named with a newline and '::warning'",
          files(**{"x\n::warning file=evil::forged.yaml": "- 1\n"}), 1, None,
          argv=("check", "{pack}", "--format", "github"), verify=github_lines_are_escaped),
        c("fmt-github-properties", "'%', ',' and ':' in a file name (a property)",
          files(**{"a%b,c:d.yaml": "- 1\n"}), 1, None,
          argv=("check", "{pack}", "--format", "github"), verify=github_properties_escaped),
        c("fmt-hint-zero-width", "a zero-width space in a kind: shown escaped",
          files(**{"lairs.yaml": "- id: den\n  kind: \"lai\\u200br\"\n  name: {ru: Нора}\n"}), 1,
          None, argv=("check", "{pack}"), verify=hint_shows_zero_width),
        c("fmt-ansi-in-text-output", "a terminal escape in a kind: shown escaped",
          files(**{"lairs.yaml": "- id: den\n  kind: \"\\e[31mred\"\n  name: {ru: Нора}\n"}), 1,
          None, argv=("check", "{pack}"), verify=ansi_is_escaped),
        c("fmt-sarif-hostile-names", "SARIF stays valid: a newline and a non-UTF-8 byte in "
          "file names", files(**{"x\n::warning.yaml": "- 1\n",
                                 os.fsdecode(b"bad\xffname.yaml"): "- 1\n"}), 1, None,
          argv=("check", "{pack}", "--format", "sarif"), verify=sarif_is_valid),
        c("fmt-json-bad-bytes", "JSON output holds a file name that is not UTF-8",
          files(**{os.fsdecode(b"bad\xffname.yaml"): "- 1\n"}), 1, None,
          verify=json_holds_bad_bytes),
        # 7a. outputs are ordinary files (checked on a real build)
        c("mode-outputs-0644", "build outputs get 0644, not a temporary file's 0600",
          lambda case: shutil.copytree(CARDS_MINI, case / "mini"), 0, None,
          argv=("build", "--pack", "mini", "--content", "{case}", "--out", "{case}/out",
                "--cache", "{case}/cache", "--lang", "ru", "--no-png", "--no-rulebook",
                "--jobs", "1", "--quiet"), verify=outputs_are_0644,
          allowed=("{pack}", "{case}/out", "{case}/cache"), timeout=120),
        # what already held
        c("held-invalid-utf8", "a byte that is not UTF-8",
          files(**{"lairs.yaml": b"- id: den\n  kind: lair\n  name: {ru: \xff}\n"}), 1,
          (("not-utf8", "mini/lairs.yaml", 3, 14),)),
        c("held-utf16", "a UTF-16 file", files(**{
            "lairs.yaml": "- id: den\n  kind: lair\n".encode("utf-16")}), 1,
          (("not-utf8", "mini/lairs.yaml", 1, 1),)),
        c("held-bom-and-crlf", "a UTF-8 BOM and CRLF line ends are fine", files(**{
            "lairs.yaml": "\ufeff- id: den\r\n  kind: lair\r\n  name: {ru: Нора, en: Den}\r\n"
            .encode()}), 0, ()),
        c("held-custom-tag", "a custom tag",
          files(**{"critters.yaml": critters(replace=("speed: 2", "speed: !big 2"))}), 1,
          (("custom-tag", "mini/critters.yaml", 4, 10),)),
        c("held-python-tag", "a Python object tag", files(**{"critters.yaml": critters(
            replace=("speed: 2", "speed: !!python/object/apply:os.system [id]"))}), 1,
          (("custom-tag", "mini/critters.yaml", 4, 10),)),
        c("held-jinja-in-text", "Jinja in content text is text",
          files(**{"lairs.yaml": "- id: den\n  kind: lair\n  name: {ru: 'Нора {{ 7*7 }}',"
                                 " en: '{{ cycler.__init__.__globals__ }}{% raw %}'}\n"}), 0, ()),
        c("held-html-in-text", "HTML in content text is text",
          files(**{"lairs.yaml": "- id: den\n  kind: lair\n  name: {ru: 'Нора', en: '<img src=x "
                                 "onerror=alert(1)><script>x</script>'}\n"}), 0, ()),
        c("held-multiple-documents", "two YAML documents in one file",
          files(**{"lairs.yaml": "- id: den\n  kind: lair\n  name: {ru: x}\n---\n- 1\n"}), 1,
          (("multiple-documents", "mini/lairs.yaml", 4, 1),)),
        c("held-bad-schema-json", "a pack schema that is not JSON",
          files(**{"schemas__kinds__x.json": "{bad"}), 1,
          (("bad-schema", "mini/schemas/kinds/x.json", 1, 2),)),
        c("held-bad-schema-type", "a pack schema that is not a draft-07 schema",
          files(**{"schemas__kinds__x.json": '{"type": 5}'}), 1,
          (("bad-schema", "mini/schemas/kinds/x.json", 1, 1),)),
        # the audit hook itself sees an open outside the pack
        c("audit-sees-outside", "the audit hook records a read outside (relic replay FILE)",
          with_base(lambda p: None), 2, None, argv=("replay", "/etc/hostname"),
          verify=audit_sees_outside),
    ]


def by_name() -> dict[str, Case]:
    found = {case.name: case for case in cases()}
    assert len(found) == len(cases()), "case names are unique"
    return found
