"""The resources of spec/interfaces.yaml: each declares the calls that acquire and release it, and
teardown gives it back with one of its own releasing calls."""

from __future__ import annotations

from pathlib import Path

from specedit import CHECKS, edit, find_issue, issues, line_of

from codegen.load import load_spec


def test_every_resource_declares_the_calls_that_give_it_back(spec_dir: Path) -> None:
    spec = load_spec(spec_dir, CHECKS)
    released = {r.name: r.released_by for r in spec.resources}
    assert released["host_memory"] == ("aclrtFreeHost", "aclrtFreeHostWithDevSync")
    assert all(released[step.resource] and step.call in released[step.resource]
               for step in spec.teardown if step.gives_back)


def test_teardown_that_gives_a_resource_back_with_a_call_it_does_not_declare_is_refused(spec_dir: Path) -> None:
    edit(spec_dir, "interfaces.yaml", "released_by: [aclrtFree]", "released_by: [aclrtFreeHost]")
    edit(spec_dir, "interfaces.yaml", "released_by: [aclrtFreeHost, aclrtFreeHostWithDevSync]",
         "released_by: [aclrtFreeHostWithDevSync]")
    line = line_of(spec_dir, "interfaces.yaml", "{resource: host_memory, call: aclrtFreeHost}")
    find_issue(issues(spec_dir), f"spec/interfaces.yaml:{line}: teardown[2].call: aclrtFreeHost gives "
               "'host_memory' back but is not among its released_by calls")


def test_a_call_that_releases_two_resources_is_refused(spec_dir: Path) -> None:
    edit(spec_dir, "interfaces.yaml", "released_by: [aclrtFree]", "released_by: [aclrtFree, aclrtFreeHost]")
    line = line_of(spec_dir, "interfaces.yaml", "released_by: [aclrtFree, aclrtFreeHost]")
    find_issue(issues(spec_dir), f"spec/interfaces.yaml:{line}: resources.device_memory.released_by[1]",
               "aclrtFreeHost already acquires or releases host_memory: a call releases one resource")
