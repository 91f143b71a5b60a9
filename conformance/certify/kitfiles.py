"""The kit's own files that judged a run, by digest: recorded in the bundle, checked by ``verify`` (issue 34.3).

A catalog demoted or a module of the kit changed on the certifying machine judges differently
from the kit of the same version elsewhere. The manifest records the SHA-256 of every file of
the kit's packages (the harness, the generated bindings, catalog and cases) as the certifying
process found them after the run; ``verify`` recomputes them from its own installation of the
same kit version and names each file that differs.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Mapping
from pathlib import Path

#: The packages whose files judge a run.
KIT_PACKAGES = ("conformance", "acl_hostmem_generated")


def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    locations = list(spec.submodule_search_locations or []) if spec else []
    return Path(locations[0]) if locations else None


def kit_files() -> dict[str, str]:
    """SHA-256 of every file of :data:`KIT_PACKAGES` (compiled caches left out), by ``package/relative path``."""
    digests: dict[str, str] = {}
    for name in KIT_PACKAGES:
        root = _package_dir(name)
        if root is None:
            continue
        for path in sorted(root.rglob("*")):
            if path.is_file() and not path.is_symlink() and "__pycache__" not in path.parts:
                digests[f"{name}/{path.relative_to(root).as_posix()}"] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digests


def kit_problems(manifest: Mapping[str, object], own_version: str) -> list[str]:
    """Each file of the kit that judged the bundle and differs from this verifier's kit of the same version."""
    recorded = manifest.get("kit_files")
    if not isinstance(recorded, dict):
        return ["manifest.json: no digests of the kit's files that judged (kit_files)"]
    version = manifest.get("suite_version")
    if version != own_version:
        return [f"kit integrity not verifiable: the bundle was judged by kit {str(version)[:60]!r}, this verifier is "
                f"{own_version!r}; verify with the same kit version"]
    own = kit_files()
    problems = [f"kit file {rel} that judged differs from this verifier's kit of the same version"
                for rel in sorted(set(recorded) & set(own)) if recorded[rel] != own[rel]]
    problems += [f"kit file {rel} that judged is not in this verifier's kit"
                 for rel in sorted(set(recorded) - set(own))]
    problems += [f"kit file {rel} of this verifier's kit is missing from the bundle's record"
                 for rel in sorted(set(own) - set(recorded))]
    return problems
