"""Files: a staging folder filled file by file, then swapped in; the manifest; PNG copies.

A build writes into `.<lang>.staging-<pid>` beside the output folder and renames it into place
only when every file is complete, so a killed build leaves the previous outputs untouched.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from pipeline.fsutil import atomic_write


def link_or_copy(source: Path, target: Path) -> None:
    """Put `source`'s bytes at `target` atomically (a hard link when the disk allows)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    try:
        os.link(source, tmp)
    except OSError:
        shutil.copyfile(source, tmp)
    os.replace(tmp, target)


def recover(final: Path) -> None:
    """Undo a swap that was interrupted between its two renames; drop stale staging folders."""
    parent, name = final.parent, final.name
    if not parent.is_dir():
        return
    olds = sorted(parent.glob(f".{name}.old-*"))
    if not final.exists() and olds:
        os.replace(olds[-1], final)
        olds = olds[:-1]
    for stale in [*olds, *parent.glob(f".{name}.staging-*")]:
        shutil.rmtree(stale, ignore_errors=True)


def staging_for(final: Path) -> Path:
    recover(final)
    staging = final.parent / f".{final.name}.staging-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    return staging


def swap_in(staging: Path, final: Path) -> None:
    """Replace `final` by `staging`: two renames, recovered by `recover` if cut between them."""
    old = final.parent / f".{final.name}.old-{os.getpid()}"
    if final.exists():
        os.replace(final, old)
    os.replace(staging, final)
    shutil.rmtree(old, ignore_errors=True)
    fd = os.open(final.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sha256_file(path: Path, memo: dict[tuple[int, int], str] | None = None) -> str:
    stat = path.stat()
    key = (stat.st_dev, stat.st_ino)
    if memo is not None and key in memo:
        return memo[key]
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    value = digest.hexdigest()
    if memo is not None:
        memo[key] = value
    return value


def write_manifest(root: Path, info: dict, known: dict[str, str] | None = None) -> Path:
    """manifest.json: every file under `root` with its sha256 and size, plus `info`.

    `known` holds hashes already computed for files linked from the cache.
    """
    memo: dict[tuple[int, int], str] = {}
    known = known or {}
    files = []
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.name != "manifest.json"):
        rel = path.relative_to(root).as_posix()
        sha = known.get(rel) or sha256_file(path, memo)
        files.append({"path": rel, "sha256": sha, "bytes": path.stat().st_size})
    manifest = {**info, "files": files}
    text = json.dumps(manifest, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    return atomic_write(root / "manifest.json", text)


def refresh_manifest(root: Path) -> Path:
    """Re-list the files of a built folder after a later stage added some (the rulebook).

    Hashes already in the manifest are reused for files of the same size; new files are hashed.
    """
    old = json.loads((root / "manifest.json").read_text("utf-8"))
    sizes = {f["path"]: (f["bytes"], f["sha256"]) for f in old.pop("files", [])}
    known = {}
    for path, (size, sha) in sizes.items():
        target = root / path
        if target.is_file() and target.stat().st_size == size:
            known[path] = sha
    return write_manifest(root, old, known=known)
