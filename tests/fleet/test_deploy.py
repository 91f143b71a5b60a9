"""The fleet engines' examples: Kubernetes manifests (deploy/) and CI pipelines (ci-examples/) validate.

``kubectl --dry-run=client`` needs an API server to map kinds, so the manifests are checked
offline against the Kubernetes JSON schemas (kubernetes-validate, strict: unknown fields
fail); the pipelines against the GitHub Actions and GitLab CI schemas that check-jsonschema
ships. Beyond the schemas, the tests check what the examples promise: one certify Job per
node requesting its Ascend device, bundles on shared storage, one merge, and commands the
kit's own command line accepts.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import kubernetes_validate
import pytest
import yaml
from conftest import ROOT

from conformance.certify.command import build_parser as certify_parser
from conformance.fleet.command import build_parser as merge_parser

sys.path.insert(0, str(ROOT / "deploy"))
from render import main as render_main  # noqa: E402

KUBERNETES = "1.30"
EXAMPLE = ROOT / "deploy" / "fleet.example.yaml"
PIPELINES = {"github-actions.yml": "vendor.github-workflows", "gitlab-ci.yml": "vendor.gitlab-ci"}


@pytest.fixture(scope="module")
def manifests(tmp_path_factory) -> dict[str, list[dict]]:
    out = tmp_path_factory.mktemp("deploy")
    assert render_main([str(EXAMPLE), "--out", str(out)]) == 0
    return {name: list(yaml.safe_load_all((out / name).read_text())) for name in ("certify.yaml", "merge.yaml")}


def test_every_manifest_validates_against_the_kubernetes_schemas(manifests):
    docs = [doc for docs in manifests.values() for doc in docs]
    assert [d["kind"] for d in docs].count("Job") == 1 + len(yaml.safe_load(EXAMPLE.read_text())["nodes"])
    for doc in docs:
        kubernetes_validate.validate(doc, KUBERNETES, strict=True)


def test_the_schema_check_can_fail(manifests):
    job = manifests["merge.yaml"][0]
    job["spec"]["template"]["spec"]["containers"][0]["volumeMount"] = []
    with pytest.raises(kubernetes_validate.ValidationError, match="'volumeMount' was unexpected"):
        kubernetes_validate.validate(job, KUBERNETES, strict=True)


def test_one_certify_job_per_node_requests_its_ascend_device_and_uploads_to_shared_storage(manifests):
    fleet = yaml.safe_load(EXAMPLE.read_text())
    claim = next(d for d in manifests["certify.yaml"] if d["kind"] == "PersistentVolumeClaim")
    assert claim["spec"]["accessModes"] == ["ReadWriteMany"]
    jobs = [d for d in manifests["certify.yaml"] if d["kind"] == "Job"]
    for node, job in zip(fleet["nodes"], jobs, strict=True):
        pod = job["spec"]["template"]["spec"]
        container = pod["containers"][0]
        assert pod["nodeSelector"] == {"kubernetes.io/hostname": node["node"]}
        assert container["resources"]["limits"] == {node["resource"]: 1}
        assert re.match(r"^huawei\.com/Ascend(910|310P|310B|310)$", node["resource"])
        assert {"name": "results", "mountPath": "/results"} in container["volumeMounts"]
        assert {"name": "results", "persistentVolumeClaim": {"claimName": claim["metadata"]["name"]}} in pod["volumes"]
        script = container["args"][0]
        assert f"out=/results/bundles/{node['node']}" in script
        certify = shlex.split(re.search(r"python -m conformance certify ([^;]*);", script).group(1))
        certify_parser().parse_args([a.replace('"', "") for a in certify])
        assert "python -m conformance verify" in script
    merge = manifests["merge.yaml"][0]["spec"]["template"]["spec"]["containers"][0]["command"]
    assert merge[:4] == ["python", "-m", "conformance", "merge"]
    assert merge_parser().parse_args(merge[4:]).inputs == [Path("/results/bundles")]


@pytest.mark.parametrize("old, new, message", [
    ("family: atlas_a3,", "family: atlas_a9,", "nodes[2].family: unknown product family"),
    ("resource: huawei.com/Ascend310P}", "resource: nvidia.com/gpu}", "nodes[4].resource: 'nvidia.com/gpu' is not an"),
    ("namespace: acl-conformance", "namespace: 'acl conformance: x'", "namespace: 'acl conformance: x' is not a DNS"),
    ("{node: npu-a2-02,", "{node: npu-a2-01,", "nodes[1].node: node 'npu-a2-01' is listed twice"),
])
def test_a_bad_fleet_file_is_named_by_line_and_nothing_is_written(tmp_path, capsys, old, new, message):
    fleet = tmp_path / "fleet.yaml"
    text = EXAMPLE.read_text()
    assert text.count(old) == 1
    fleet.write_text(text.replace(old, new))
    line = [n for n, row in enumerate(fleet.read_text().splitlines(), 1) if new in row][-1]
    assert render_main([str(fleet), "--out", str(tmp_path / "out")]) == 2
    assert f"{fleet}:{line}: {message}" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def _check_pipeline(path: Path, schema: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, str(path)],
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_the_ci_pipelines_validate_and_cover_every_product_family(name, catalog, tmp_path):
    path = ROOT / "ci-examples" / name
    done = _check_pipeline(path, PIPELINES[name])
    assert done.returncode == 0, done.stdout + done.stderr
    text = path.read_text()
    products = re.search(r"(?:product|PRODUCT): \[([^\]]*)\]", text).group(1)
    assert [p.strip() for p in products.split(",")] == [f["id"] for f in catalog["families"]]
    certify = shlex.split(re.search(r"python -m conformance certify ([^|]*)\|\|", text).group(1))
    certify_parser().parse_args([a.replace('"', "") for a in certify])
    assert "make merge RUNS=" in text
    broken = tmp_path / name
    broken.write_text(text.replace("when: always", "when: sometimes").replace("runs-on:", "runs_on:"))
    assert _check_pipeline(broken, PIPELINES[name]).returncode != 0
