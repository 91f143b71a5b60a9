"""Render the Kubernetes manifests of a fleet certification from a fleet file.

``python deploy/render.py FLEET.yaml [--out DIR]`` writes ``DIR/certify.yaml`` (namespace,
shared storage, one certify Job per node requesting its Ascend device-plugin resource) and
``DIR/merge.yaml`` (one Job merging every uploaded bundle into the fleet matrix). The fleet
file is checked first; a problem is reported as ``file:line: field: message`` and nothing
is written. See docs/fleet.md, "Running on a fleet".
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

import jinja2

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from codegen.yamlload import format_path, load_yaml, locate  # noqa: E402  (a script beside the kit)

TEMPLATES = Path(__file__).resolve().parent / "templates"
OUTPUTS = {"certify.yaml": "certify.yaml.j2", "merge.yaml": "merge.yaml.j2"}
# Every value lands in YAML unquoted, so each must match a form that cannot break it.
DNS_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
FORMS: dict[str, tuple[str, str]] = {
    "image": (r"^[a-z0-9][a-z0-9._/:@-]*$", "an image reference such as registry.example.com/kit:1.0"),
    "namespace": (rf"^{DNS_LABEL}$", "a DNS label"),
    "storage.claim": (rf"^{DNS_LABEL}$", "a DNS label"),
    "storage.size": (r"^[0-9]+(Mi|Gi|Ti)$", "a size such as 20Gi"),
    "storage.class": (rf"^{DNS_LABEL}$", "a storage class name"),
    "ascend_home": (r"^/[A-Za-z0-9._/-]*[A-Za-z0-9._-]$", "an absolute path"),
    "node": (r"^[a-z0-9]([-a-z0-9.]{0,49}[a-z0-9])?$", "a node name of at most 51 characters (a-z 0-9 - .)"),
    "family": (r"^[a-z][a-z0-9_]*$", "a product family ID of spec/products.yaml"),
    "resource": (r"^huawei\.com/[A-Za-z0-9]+$", "an Ascend device-plugin resource such as huawei.com/Ascend910"),
}


class FleetError(ValueError):
    """A bad fleet file: ``file:line: field: message``."""


def _families() -> set[str]:
    import json

    return {f["id"] for f in json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())["families"]}


def check_fleet(data: Any, name: str) -> dict[str, Any]:
    """The fleet file's values, checked; raises FleetError at the first problem."""

    def fail(path: list[str | int], message: str) -> FleetError:
        return FleetError(f"{name}:{locate(data, path)}: {format_path(path) or '(top)'}: {message}")

    def value(path: list[str | int], form: str, node: Any, required: bool = True) -> Any:
        key = path[-1]
        if not isinstance(node, dict) or key not in node:
            if required:
                raise fail(path[:-1], f"missing {key!r}")
            return None
        text = node[key]
        pattern, what = FORMS[form]
        if not isinstance(text, str) or not re.match(pattern, text):
            raise fail(path, f"{text!r} is not {what}")
        return text

    if not isinstance(data, dict):
        raise fail([], "expected a mapping with image, namespace, storage, ascend_home and nodes")
    storage = data.get("storage")
    fleet = {
        "image": value(["image"], "image", data),
        "namespace": value(["namespace"], "namespace", data),
        "ascend_home": value(["ascend_home"], "ascend_home", data),
        "storage": {"claim": value(["storage", "claim"], "storage.claim", storage),
                    "size": value(["storage", "size"], "storage.size", storage),
                    "class": value(["storage", "class"], "storage.class", storage, required=False)},
    }
    nodes = data.get("nodes")
    if not isinstance(nodes, list) or not nodes:
        raise fail(["nodes"], "needs a list of at least one node")
    families, seen, fleet["nodes"] = _families(), set(), []
    for index, entry in enumerate(nodes):
        node = {key: value(["nodes", index, key], key, entry) for key in ("node", "family", "resource")}
        if node["family"] not in families:
            raise fail(["nodes", index, "family"], f"unknown product family (known: {', '.join(sorted(families))})")
        if node["node"] in seen:
            raise fail(["nodes", index, "node"], f"node {node['node']!r} is listed twice")
        seen.add(node["node"])
        fleet["nodes"].append(node)
    return fleet


def render(fleet_file: Path) -> dict[str, str]:
    """Output file name -> rendered manifest text."""
    data, issues = load_yaml(fleet_file, str(fleet_file))
    if issues:
        raise FleetError(str(issues[0]))
    fleet = check_fleet(data, str(fleet_file))
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, autoescape=False)
    return {name: env.get_template(template).render(fleet, source=fleet_file.name)
            for name, template in OUTPUTS.items()}


def main(argv: list[str] | None = None) -> int:
    """Render FLEET.yaml into --out (or print it); exit 2 for a bad fleet file."""
    parser = argparse.ArgumentParser(prog="python deploy/render.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("fleet", type=Path, help="the fleet file (see deploy/fleet.example.yaml)")
    parser.add_argument("--out", type=Path, help="folder for certify.yaml and merge.yaml (default: print both)")
    args = parser.parse_args(argv)
    try:
        manifests = render(args.fleet)
    except (FleetError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for name, text in manifests.items():
        if args.out is None:
            print(f"# ---- {name}\n{text}")
            continue
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / name).write_text(text, encoding="utf-8")
        print(f"wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
