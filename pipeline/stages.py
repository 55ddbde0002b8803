"""The pipeline in order: find -> load -> validate -> resolve -> check.

`analyze()` runs every stage, collects every diagnostic and never raises for content problems;
`load_model()` is the strict form that later stages (build, sim, odds) call.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import pkgutil
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from pipeline import checks
from pipeline.diagnostics import (
    Diagnostic,
    Omitted,
    RelicError,
    Severity,
    Span,
    cap_per_file,
    error,
    relative,
)
from pipeline.fsutil import Tree, dump_pickle, load_pickle, scan_tree
from pipeline.loader import try_load
from pipeline.model import Model, PackInfo, SourceFile, freeze
from pipeline.packfiles import MANIFEST, is_entity_file
from pipeline.resolve import Partial, resolve
from pipeline.schemas import Catalogue, catalogue_for
from pipeline.validate import Validated, validate_files, validate_manifest

PARALLEL_FROM_BYTES = 512 * 1024

CheckFn = Callable[[Model], Iterable[Diagnostic]]


@dataclass
class Analysis:
    """Everything `relic check` learns about one pack."""

    pack_dir: Path
    model: Model | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    omitted: dict[str, Omitted] = field(default_factory=dict)  # counted, past the cap

    @property
    def ok(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)


# ----- finding packs and files -----------------------------------------------------------------


def has_manifest(folder: Path) -> bool:
    """The folder holds an entry named pack.yaml, whatever it is (its scan says if it cannot be
    read); nothing is opened or followed here."""
    return os.path.lexists(folder / MANIFEST)


def find_packs(path: Path) -> list[Path]:
    """A pack folder, or a folder of packs."""
    if has_manifest(path):
        return [path]
    try:
        with os.scandir(path) as listing:
            names = sorted(entry.name for entry in listing)
    except OSError:
        return []
    return [path / name for name in names if has_manifest(path / name)]


def pack_dir_for(content: Path, pack_id: str) -> Path:
    candidate = content / pack_id
    if has_manifest(candidate):
        return candidate
    if has_manifest(content) and content.name == pack_id:
        return content
    known = ", ".join(p.name for p in find_packs(content)) or "none"
    raise RelicError(
        [
            error(
                "unknown-pack",
                f"no pack '{pack_id}' in {relative(content)} (packs: {known})",
                Span(str(content)),
            )
        ]
    )


def entity_files(pack_dir: Path, tree: Tree | None = None) -> list[Path]:
    """The entity files of a pack: regular, readable files inside its project (`scan_tree`)."""
    tree = tree or scan_tree(pack_dir)
    return [p for p in tree.files if is_entity_file(pack_dir, p)]


@dataclass
class FileResult:
    """One file loaded and validated (in a worker process when there is a lot to read)."""

    source: SourceFile | None
    diagnostics: list[Diagnostic]
    validated: Validated


_CATALOGUES: dict[tuple[Path, ...], Catalogue] = {}


def _process(job: tuple[Path, str, tuple[Path, ...], Path | None]) -> FileResult:
    path, display, roots, project = job
    catalogue = _CATALOGUES.setdefault(roots, Catalogue(roots))
    source, problems = try_load(path, display, project)
    validated = validate_files([source] if source else [], catalogue)
    return FileResult(source, problems, validated)


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


# job -> (sha256 of the file's bytes, its result); None until `remember_files()`
_REMEMBERED: dict[tuple, tuple[bytes, FileResult]] | None = None


def remember_files() -> None:
    """Keep each file's load-and-validate result in this process and reuse it while the file's
    bytes are unchanged: for a long-lived process that analyzes one pack after every edit."""
    global _REMEMBERED
    if _REMEMBERED is None:
        _REMEMBERED = {}


# where each file's result is kept under its bytes (`files_cached_in`), or None
_FILE_CACHE: Path | None = None
FILE_CACHE_CODE = ("loader.py", "validate.py", "schemas.py", "model.py", "diagnostics.py",
                   "stages.py", "fsutil.py", "resolve.py")


@contextlib.contextmanager
def files_cached_in(folder: Path) -> Iterator[None]:
    """Within: keep each file's load-and-validate result in `folder/files/`, under the file's
    bytes, the schemas and this code, and reuse it in later processes: a build after a
    one-file edit reads and validates that file alone."""
    global _FILE_CACHE
    before, _FILE_CACHE = _FILE_CACHE, Path(folder) / "files"
    try:
        yield
    finally:
        _FILE_CACHE = before


@cache
def _code_digest() -> str:
    from importlib import metadata

    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for name in FILE_CACHE_CODE:
        digest.update((here / name).read_bytes())
    for lib in ("ruamel.yaml", "jsonschema"):
        digest.update(f"{lib}={metadata.version(lib)}\0".encode())
    return digest.hexdigest()


def _cache_entry(job: tuple, digest: bytes, catalogue: Catalogue) -> Path:
    assert _FILE_CACHE is not None
    path, display, _, project = job
    key = hashlib.sha256("\0".join((_code_digest(), catalogue.digest, str(path), display,
                                     str(project), digest.hex())).encode()).hexdigest()
    return _FILE_CACHE / f"{key}.pickle"


def _from_disk(entry: Path) -> FileResult | None:
    found = load_pickle(entry)
    return found if isinstance(found, FileResult) else None


def _digest(path: Path) -> bytes | None:
    try:
        return hashlib.sha256(path.read_bytes()).digest()
    except OSError:
        return None


def process_files(
    paths: list[Path], catalogue: Catalogue, project: Path | None = None
) -> list[FileResult]:
    """Load and validate every file, keeping going past failures; two processes for big packs."""
    jobs = [(p, relative(p), catalogue.roots, project) for p in paths]
    if _REMEMBERED is None and _FILE_CACHE is None:
        return _process_all(jobs)
    digests = [_digest(p) for p in paths]
    known: dict[int, FileResult] = {}
    for i, job in enumerate(jobs):
        if digests[i] is None:
            continue
        if _REMEMBERED is not None and _REMEMBERED.get(job, (None,))[0] == digests[i]:
            known[i] = _REMEMBERED[job][1]
        elif _FILE_CACHE is not None and (
                found := _from_disk(_cache_entry(job, digests[i], catalogue))) is not None:
            known[i] = found
    todo = [i for i in range(len(jobs)) if i not in known]
    for i, found in zip(todo, _process_all([jobs[i] for i in todo]), strict=True):
        known[i] = found
        if digests[i] is not None and _digest(paths[i]) == digests[i]:  # not changed meanwhile
            if _REMEMBERED is not None:
                _REMEMBERED[jobs[i]] = (digests[i], found)
            if _FILE_CACHE is not None:
                dump_pickle(_cache_entry(jobs[i], digests[i], catalogue), found)
    return [known[i] for i in range(len(jobs))]


def _process_all(jobs: list[tuple[Path, str, tuple[Path, ...], Path | None]]) -> list[FileResult]:
    paths = [job[0] for job in jobs]
    total = sum(_size(p) for p in paths)
    if total >= PARALLEL_FROM_BYTES and len(paths) > 1:
        from concurrent.futures import ProcessPoolExecutor  # a big pack's: not every load's

        with ProcessPoolExecutor(max_workers=2) as pool:
            return list(pool.map(_process, jobs, chunksize=max(1, len(jobs) // 8)))
    return [_process(job) for job in jobs]


# ----- stages ----------------------------------------------------------------------------------


def load_manifest(
    pack_dir: Path, catalogue: Catalogue, project: Path | None = None
) -> tuple[PackInfo | None, list[Diagnostic]]:
    manifest, problems = try_load(pack_dir / MANIFEST, relative(pack_dir / MANIFEST), project)
    if manifest is None:
        return None, problems
    problems = validate_manifest(manifest, catalogue)
    if problems:
        return None, problems
    data = manifest.data
    if data["id"] != pack_dir.name:
        problems.append(
            error(
                "pack-id",
                f"pack id '{data['id']}' differs from its folder '{pack_dir.name}'",
                manifest.span(("id",)),
            )
        )
    info = PackInfo(
        id=data["id"],
        title=freeze(data["title"]),
        languages=tuple(data["languages"]),
        ruleset=data.get("ruleset"),
        root=pack_dir,
        manifest=manifest,
        data=freeze(data),
    )
    from pipeline.games import ruleset_problems

    return info, problems + ruleset_problems(info)


def plugin_checks() -> list[tuple[str, CheckFn]]:
    found = []
    for info in sorted(pkgutil.iter_modules(checks.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{checks.__name__}.{info.name}")
        if callable(getattr(module, "check", None)):
            found.append((info.name, module.check))
    return found


def run_plugin_checks(model: Model) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for name, fn in plugin_checks():
        try:
            out.extend(fn(model))
        except RelicError as exc:
            out.extend(exc.diagnostics)
        except Exception as exc:
            out.append(
                error(
                    "check-crashed",
                    f"check '{name}' failed: {type(exc).__name__}: {exc}",
                    model.pack.manifest.span(),
                )
            )
    return out


def analyze(pack_dir: Path, plugins: bool = True) -> Analysis:
    """Run every stage on one pack; collect every problem; stop before plug-ins on errors.
    A file with very many problems shows the first of them and says how many more it has."""
    result = _analyze(pack_dir, plugins)
    result.diagnostics = cap_per_file(result.diagnostics, result.omitted)
    return result


def _refused(tree: Tree, path: Path) -> bool:
    display = relative(path)
    return any(d.span.file == display and d.severity is Severity.ERROR for d in tree.diagnostics)


def _analyze(pack_dir: Path, plugins: bool) -> Analysis:
    result = Analysis(pack_dir)
    tree = scan_tree(pack_dir)  # every entry looked at before anything is opened
    result.diagnostics += tree.diagnostics
    if _refused(tree, pack_dir / "schemas"):
        return result  # validating against the wrong schemas would only give false errors
    catalogue = catalogue_for(pack_dir)
    result.diagnostics += catalogue.problems
    manifest = pack_dir / MANIFEST
    pack = None
    if manifest in tree.files:
        pack, problems = load_manifest(pack_dir, catalogue, tree.project)
        result.diagnostics += problems
    elif not any(d.span.file == relative(manifest) for d in tree.diagnostics):
        what = "a folder" if manifest.is_dir() else "not a regular file"
        result.diagnostics.append(
            error("not-a-file", f"{what}, not the pack's manifest file", Span(relative(manifest)),
                  "pack.yaml is a YAML file: id, title, languages (schemas/pack.json)")
        )
    results = process_files(entity_files(pack_dir, tree), catalogue, tree.project)
    entities, invalid_ids = [], {}
    for r in results:
        result.diagnostics += r.diagnostics + r.validated.diagnostics
        result.omitted.update(r.validated.omitted)
        entities += r.validated.entities
        invalid_ids.update(r.validated.invalid_ids)
    if pack is None:
        return result
    refused = any(d.severity is Severity.ERROR for d in tree.diagnostics)
    unreadable = refused or any(r.source is None for r in results)
    model, problems = resolve(pack, entities, catalogue, Partial(unreadable, invalid_ids))
    result.diagnostics += problems
    result.model = model
    if plugins and result.ok:
        result.diagnostics += run_plugin_checks(model)
    return result


def load_model(pack_dir: Path, plugins: bool = False) -> Model:
    """The model of a clean pack, or `RelicError` with every error found."""
    result = analyze(pack_dir, plugins=plugins)
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    if errors or result.model is None:
        raise RelicError(
            errors or [error("no-model", "the pack could not be loaded", Span(str(pack_dir)))]
        )
    return result.model
