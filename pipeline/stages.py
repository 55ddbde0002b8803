"""The pipeline in order: find -> load -> validate -> resolve -> check.

`analyze()` runs every stage, collects every diagnostic and never raises for content problems;
`load_model()` is the strict form that later stages (build, sim, odds) call.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from pipeline import checks
from pipeline.diagnostics import Diagnostic, RelicError, Severity, Span, error, relative
from pipeline.loader import try_load
from pipeline.model import Model, PackInfo, SourceFile, freeze
from pipeline.resolve import Partial, resolve
from pipeline.schemas import Catalogue, catalogue_for
from pipeline.validate import validate_files, validate_manifest

MANIFEST = "pack.yaml"
NOT_ENTITY_DIRS = {"rules", "print", "schemas"}
PARALLEL_FROM_BYTES = 2 * 1024 * 1024

CheckFn = Callable[[Model], Iterable[Diagnostic]]


@dataclass
class Analysis:
    """Everything `relic check` learns about one pack."""

    pack_dir: Path
    model: Model | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)


# ----- finding packs and files -----------------------------------------------------------------


def find_packs(path: Path) -> list[Path]:
    """A pack folder, or a folder of packs."""
    if (path / MANIFEST).is_file():
        return [path]
    return sorted(p.parent for p in path.glob(f"*/{MANIFEST}"))


def pack_dir_for(content: Path, pack_id: str) -> Path:
    candidate = content / pack_id
    if (candidate / MANIFEST).is_file():
        return candidate
    if (content / MANIFEST).is_file() and content.name == pack_id:
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


def is_entity_file(pack_dir: Path, path: Path) -> bool:
    rel = path.relative_to(pack_dir)
    if rel.parts[0] in NOT_ENTITY_DIRS or rel.name == MANIFEST:
        return False
    return not (len(rel.parts) == 1 and rel.name.startswith("trace"))


def entity_files(pack_dir: Path) -> list[Path]:
    return sorted(p for p in pack_dir.rglob("*.yaml") if is_entity_file(pack_dir, p))


def _load_one(args: tuple[Path, str]) -> tuple[SourceFile | None, list[Diagnostic]]:
    return try_load(*args)


def load_files(paths: list[Path]) -> tuple[list[SourceFile], list[Diagnostic]]:
    """Load every file (in parallel when there is a lot to read); keep going past failures."""
    jobs = [(p, relative(p)) for p in paths]
    total = sum(p.stat().st_size for p in paths)
    if total >= PARALLEL_FROM_BYTES and len(paths) > 1:
        with ProcessPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(_load_one, jobs, chunksize=max(1, len(jobs) // 8)))
    else:
        results = [_load_one(job) for job in jobs]
    files = [f for f, _ in results if f is not None]
    diagnostics = [d for _, ds in results for d in ds]
    return files, diagnostics


# ----- stages ----------------------------------------------------------------------------------


def load_manifest(pack_dir: Path, catalogue: Catalogue) -> tuple[PackInfo | None, list[Diagnostic]]:
    manifest, problems = try_load(pack_dir / MANIFEST, relative(pack_dir / MANIFEST))
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
    return info, problems


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
    """Run every stage on one pack; collect every problem; stop before plug-ins on errors."""
    result = Analysis(pack_dir)
    catalogue = catalogue_for(pack_dir)
    pack, problems = load_manifest(pack_dir, catalogue)
    result.diagnostics += problems
    files, load_problems = load_files(entity_files(pack_dir))
    result.diagnostics += load_problems
    validated = validate_files(files, catalogue)
    result.diagnostics += validated.diagnostics
    if pack is None:
        return result
    partial = Partial(bool(load_problems), validated.invalid_ids)
    model, problems = resolve(pack, validated.entities, catalogue, partial)
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
