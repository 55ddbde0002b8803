"""What the files of a pack folder are: its manifest, and which YAML files hold entities.

Kept apart from `stages` (which reads them) so that a process that only asks which files a
pack's entities come from does not import the loader and the schemas.
"""

from __future__ import annotations

from pathlib import Path

MANIFEST = "pack.yaml"
NOT_ENTITY_DIRS = {"rules", "print", "schemas"}


def is_entity_file(pack_dir: Path, path: Path) -> bool:
    """A YAML file of the pack outside its rules, print and schemas folders, other than the
    manifest and the top-level trace files."""
    rel = path.relative_to(pack_dir)
    if path.suffix != ".yaml" or rel.parts[0] in NOT_ENTITY_DIRS or rel.name == MANIFEST:
        return False
    return not (len(rel.parts) == 1 and rel.name.startswith("trace"))
