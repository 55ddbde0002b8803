"""`relic serve [--pack ID] [--lang ru|en] [--port 8000] [--host 127.0.0.1]`: live preview."""

from __future__ import annotations

import argparse
from pathlib import Path

EDITOR_URL = "vscode://file{path}:{line}:{col}"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="live preview in the browser: every component, redrawn as you edit",
        description="Serve a live preview of a pack on this machine: every component front "
        "and back, grouped by kind and deck, with copy counts, ids, source lines and "
        "diagnostics; the rulebook pages, the odds tables and a small simulation report. "
        "Edits to the pack, the schemas or the templates are re-checked and only the faces "
        "they change are rendered again; the open page swaps just those pictures. While the "
        "content has errors, the last good pictures stay under a list of the errors. Only "
        "the preview's build folder and the app's own files are served. Ctrl-C stops it.",
    )
    p.add_argument("--pack", help="the pack id (default: the only pack in the content folder)")
    p.add_argument("--lang", help="the language shown (default: the pack's source language)")
    p.add_argument("--port", type=int, default=8000, help="TCP port (default 8000; 0: any free)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--content", default="content", help="the folder of packs (default: content)")
    p.add_argument("--out", type=Path, default=None,
                   help="where the preview builds (default: build/<pack>/preview)")
    p.add_argument("--cache", type=Path, default=Path("build/.cache"),
                   help="render cache, shared with relic build (default: build/.cache)")
    p.add_argument("--jobs", type=int, default=0,
                   help="render processes for big rebuilds (default: all cores)")
    p.add_argument("--editor-url", default=EDITOR_URL,
                   help="link of a source line ({path}, {line}, {col}); default opens VS Code")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from pipeline.processes import default_workers
    from pipeline.serve import choose_pack, out_folder, pack_languages
    from pipeline.serve.app import PreviewServer
    from pipeline.serve.messages import Settings
    from pipeline.serve.server import serve

    pack_dir = choose_pack(Path(args.content), args.pack)
    languages = pack_languages(pack_dir)
    lang = args.lang or (languages[0] if languages else "")
    out = out_folder(pack_dir, args.out or Path("build") / pack_dir.name / "preview")
    settings = Settings(pack_dir=pack_dir.resolve(), out_root=out,
                        cache_dir=args.cache.resolve(), langs=(lang,) if lang else (),
                        jobs=args.jobs or default_workers(), pdf=False, gallery=True)
    preview = PreviewServer(settings, lang, args.editor_url, Path.cwd())
    return serve(preview, args.host, args.port)
