"""Units of the harness: product families, versions, applicability, and the run's options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.harness import product
from conformance.harness.options import hard_timeout, resolve_lib

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())
RULES = {r["id"]: r for r in CATALOG["rules"]}
FAMILIES = {f["id"]: f for f in CATALOG["families"]}


def test_family_detection_by_sample_soc():
    for family in CATALOG["families"]:
        assert product.family_for_soc(CATALOG, family["sample_soc"])["id"] == family["id"]
    assert product.family_for_soc(CATALOG, "NotAnAscend") is None


def test_version_tuples():
    assert product.version_tuple("5.10.0-136.12.0.86.oe2203sp1.x86_64") == (5, 10, 0)
    assert product.version_tuple("6.6") == (6, 6)
    assert product.version_tuple("garbage") == ()


def test_applicability_rules():
    a2, rc, ipv = FAMILIES["atlas_a2"], FAMILIES["atlas_inference"], FAMILIES["ipv350"]
    new, old = product.Machine("6.6.0"), product.Machine("5.10.0-136")

    def app(rule_id, family, machine=new):
        return product.applicability(CATALOG, RULES[rule_id], family, machine)

    assert app("HM-ALIGN-MALLOC", a2).applies
    # The form is what aclrtGetRunMode answered, not a property of the family.
    assert app("HM-ALIGN-MALLOC", rc).applies
    assert app("HM-ALIGN-MALLOC", rc, product.Machine("6.6.0", run_mode="device")).skip_reason
    assert app("HM-SYNC-DEVSYNC-CURRENT-DEVICE", a2).skip_reason
    assert app("HM-SYNC-DEVSYNC-CURRENT-DEVICE", a2, product.Machine("6.6.0", devices=2)).applies
    assert app("HM-VA-IDENTITY", rc).skip_reason
    assert app("HM-REG-KERNEL-LEGACY", a2).skip_reason
    assert app("HM-REG-KERNEL-LEGACY", a2, old).applies
    assert app("HM-REG-PAGEABLE", a2, product.Machine("5.10.0")).skip_reason
    assert app("HM-REG-PAGEABLE", a2, product.Machine("5.10.1")).applies
    unsupported = app("HM-PAIR-REG-UNREG", rc).unsupported
    assert "aclrtHostRegister" in unsupported
    training = app("HM-PAIR-REG-UNREG", FAMILIES["atlas_training"])
    assert "aclrtHostRegister" in training.unsupported and "aclrtHostRegister" not in training.probe  # disputed
    assert app("HM-ALIGN-MALLOC", ipv).unsupported
    reason = product.not_supported_reason(CATALOG, "aclrtHostRegister", rc)
    assert reason.startswith("NOT_APPLICABLE: aclrtHostRegister is not supported on Atlas inference")


def test_applicability_follows_the_driver_generation_the_host_page_and_the_allocator():
    a2, a950, rc = FAMILIES["atlas_a2"], FAMILIES["ascend_950"], FAMILIES["atlas_inference"]
    assert (a2["driver"], a950["driver"], rc["driver"]) == ("v2", "v3", "none")
    page4k, page64k = product.Machine("6.6.0"), product.Machine("6.6.0", host_page=65536)
    fallback = product.Machine("6.6.0", host_alloc="malloc_fallback")
    assert page4k.host_page == 4096 and page4k.host_alloc == "svm"  # the defaults: a 4 KiB host, SVM memory

    def reason(rule_id, family, machine):
        return product.applies_reason(RULES[rule_id], family, machine)

    # driver: the rules that rest on one driver generation's source
    assert reason("HM-REG-UNALIGNED", a2, page4k) is None
    assert "driver generation v3" in reason("HM-REG-UNALIGNED", a950, page4k)
    assert "driver generation none" in reason("HM-REG-PAST-END", rc, page4k)
    assert reason("HM-REG-PAST-END", a950, page4k) is None
    # host page: neighbouring buffers on a 4 KiB host, the large-page rule above it
    assert reason("HM-REG-NEIGHBOURS", a2, page4k) is None
    assert "the host page is 65536 bytes" in reason("HM-REG-NEIGHBOURS", a2, page64k)
    assert "the host page is 4096 bytes" in reason("HM-REG-NEIGHBOURS-LARGE-PAGE", a2, page4k)
    assert reason("HM-REG-NEIGHBOURS-LARGE-PAGE", a2, page64k) is None
    assert reason("HM-REG-NEIGHBOURS-LARGE-PAGE", a950, page64k) is not None  # only the svm v2 driver rounds
    # host alloc: the 64-byte promise holds for SVM memory; the malloc fallback has its own advisory rule
    assert reason("HM-ALIGN-MALLOC", a2, page4k) is None
    assert "host memory comes from malloc_fallback" in reason("HM-ALIGN-MALLOC", a2, fallback)
    assert reason("HM-ALIGN-MALLOC-FALLBACK", a2, fallback) is None
    assert reason("HM-ALIGN-MALLOC-FALLBACK", a2, page4k) is not None
    assert product.applicability(CATALOG, RULES["HM-ALIGN-LIVE"], a2, fallback).skip_reason


def test_options(monkeypatch):
    assert hard_timeout(10) == 35
    assert resolve_lib(None).name == "libascendcl.so"
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    assert resolve_lib("auto") is None  # the preflight check says to source set_env.sh
    monkeypatch.setenv("ASCEND_HOME_PATH", "/opt/cann")
    assert resolve_lib("auto") == Path("/opt/cann/lib64/libascendcl.so")


def test_host_page_allocator_and_sync_window_options():
    from conformance.harness.options import DEFAULT_SYNC_WINDOW, OptionError, settings_from_values

    default = settings_from_values({})
    assert default.host_alloc == "svm" and default.sync_window == DEFAULT_SYNC_WINDOW and default.host_page >= 4096
    chosen = settings_from_values({"acl_host_page": "65536", "acl_host_alloc": "malloc_fallback",
                                   "acl_sync_window": "0.3"})
    assert (chosen.host_page, chosen.host_alloc, chosen.sync_window) == (65536, "malloc_fallback", 0.3)
    for values, says in (({"acl_host_page": "2048"}, "must be at least 4096"),
                         ({"acl_host_page": "12288"}, "must be a power of two"),
                         ({"acl_host_page": str(1 << 21)}, "must be a power of two from 4096 to 1048576"),
                         ({"acl_host_page": "4k"}, "not a whole number"),
                         ({"acl_host_alloc": "mmap"}, "must be one of svm, malloc_fallback"),
                         ({"acl_sync_window": "nan"}, "must be a finite number of seconds"),
                         ({"acl_sync_window": "0"}, "must be a finite number of seconds")):
        with pytest.raises(OptionError, match=says):
            settings_from_values(values)

