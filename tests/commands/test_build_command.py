"""`relic build` files the rulebook of every language into the output folder and its manifest."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from pipeline import cli

FIXTURE = Path(__file__).resolve().parent.parent / "cards" / "fixtures" / "mini"


def test_rulebook_lands_in_each_language_folder_and_manifest(tmp_path, monkeypatch, capsys):
    content, out = tmp_path / "content", tmp_path / "out"
    shutil.copytree(FIXTURE, content / "mini")
    (content / "mini" / "rules").mkdir(exist_ok=True)
    calls = []

    def fake_rulebook(model, lang, out_dir, *, paper="a5", booklet=False, proof=False):
        # the book is made beside the finished cards of its language (thumbnails come from them)
        assert out_dir == out / lang and (out_dir / "manifest.json").is_file()
        calls.append((model.pack.id, lang, paper, booklet, proof))
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / "rulebook.pdf"
        path.write_bytes(f"%PDF-1.7 book {lang}".encode())
        return [path]

    monkeypatch.setattr("pipeline.rulebook.build_rulebook", fake_rulebook)
    code = cli.main(["build", "--pack", "mini", "--content", str(content), "--out", str(out),
                     "--cache", str(tmp_path / "cache"), "--no-png", "--quiet", "--jobs", "1",
                     "--rulebook-paper", "a4"])
    assert code == 0, capsys.readouterr().err
    langs = ["ru", "en"]  # the fixture pack's languages, in pack order
    assert [c[1] for c in calls] == langs
    assert all(c[2] == "a4" for c in calls)
    for lang in langs:
        book = out / lang / "rulebook.pdf"
        assert book.read_bytes() == f"%PDF-1.7 book {lang}".encode()
        manifest = json.loads((out / lang / "manifest.json").read_text())
        [entry] = [f for f in manifest["files"] if f["path"] == "rulebook.pdf"]
        assert entry["sha256"] == hashlib.sha256(book.read_bytes()).hexdigest()


def test_no_rulebook_flag_and_packs_without_rules(tmp_path, monkeypatch):
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content / "mini")
    shutil.rmtree(content / "mini" / "rules", ignore_errors=True)

    def must_not_run(*args, **kwargs):
        raise AssertionError("no rules folder: no rulebook")

    monkeypatch.setattr("pipeline.rulebook.build_rulebook", must_not_run)
    out = tmp_path / "out"
    code = cli.main(["build", "--pack", "mini", "--content", str(content), "--out", str(out),
                     "--cache", str(tmp_path / "cache"), "--no-png", "--quiet", "--jobs", "1"])
    assert code == 0
    assert not (out / "ru" / "rulebook.pdf").exists()
