"""The certificate covers every shared object the library loaded, not only the one named on the command line."""

from __future__ import annotations

import hashlib
import json

from bundle_helpers import SIM_LIB

from conformance.harness.loaded import brought_in, mapped_files


def test_the_bundle_names_each_object_the_library_mapped_with_its_sha256(faithful_bundle):
    manifest = json.loads((faithful_bundle.bundle / "manifest.json").read_text(encoding="utf-8"))
    loaded = {path: digest for path, digest in manifest["environment"]["loaded_libraries"]}
    assert str(SIM_LIB.resolve()) in loaded
    assert loaded[str(SIM_LIB.resolve())] == hashlib.sha256(SIM_LIB.read_bytes()).hexdigest()
    certificate = (faithful_bundle.bundle / "certificate.md").read_text(encoding="utf-8")
    assert "- **Libraries it loaded:** 1: libascendcl.so (" in certificate


def test_only_what_was_mapped_after_the_mark_counts(tmp_path):
    import ctypes

    before = mapped_files()
    ctypes.CDLL(str(SIM_LIB))
    assert [path for path, _digest in brought_in(before)] == [str(SIM_LIB.resolve())]
