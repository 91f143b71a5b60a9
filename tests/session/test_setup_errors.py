"""Set-up mistakes stop the run before any case: one short message, its own exit status, no verdict."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from kit_runs import KIT, LIB, ROOT, child_env

from conformance.session.preflight import Problem

LIBZ = next((p for p in (Path("/lib/x86_64-linux-gnu/libz.so.1"), Path("/usr/lib/x86_64-linux-gnu/libz.so.1"),
                         Path("/lib64/libz.so.1"), Path("/usr/lib64/libz.so.1")) if p.is_file()), None)

#: mistake -> (arguments, extra environment, exit status, words the message must contain)
MISTAKES = {
    "missing --acl-lib path": (["--acl-lib", "/nonexistent/libascendcl.so"], {}, Problem.LIBRARY_NOT_FOUND,
                               ["/nonexistent/libascendcl.so", "no such file", "set_env.sh"]),
    "a directory as --acl-lib": (["--acl-lib", str(LIB.parent)], {}, Problem.LIBRARY_NOT_FOUND,
                                 [f"--acl-lib {LIB.parent} is a directory", "lib64/libascendcl.so"]),
    "not an ACL library (libz)": (["--acl-lib", str(LIBZ)], {}, Problem.NOT_AN_ACL_LIBRARY,
                                  ["not an ACL runtime library", "aclInit"]),
    "unknown --acl-product": (["--acl-lib", str(LIB), "--acl-product", "atlas_a9"], {}, Problem.UNKNOWN_PRODUCT,
                              ["atlas_a9", "atlas_a2"]),
    "misspelt ACLSIM_FAULTS": (["--acl-lib", str(LIB)], {"ACLSIM_FAULTS": "align_malloc_of16"},
                               Problem.UNKNOWN_SIM_FAULT, ["align_malloc_of16", "align_malloc_off16"]),
    "wrong ASCEND_HOME_PATH": (["--acl-lib", "auto"], {"ASCEND_HOME_PATH": "/opt/no-cann"},
                               Problem.LIBRARY_NOT_FOUND, ["ASCEND_HOME_PATH=/opt/no-cann", "set_env.sh"]),
    "auto without ASCEND_HOME_PATH": (["--acl-lib", "auto"], {}, Problem.LIBRARY_NOT_FOUND,
                                      ["ASCEND_HOME_PATH", "set_env.sh"]),
    "failing aclInit": (["--acl-lib", str(LIB)], {"ACLSIM_DEVICE_COUNT": "0"}, Problem.INIT_FAILED,
                        ["aclInit failed", "ACL_ERROR_INVALID_PARAM", "ACLSIM_DEVICE_COUNT"]),
    "unknown --acl-rule": (["--acl-lib", str(LIB), "--acl-rule", "HM-ALIGN-MALOC"], {}, Problem.UNKNOWN_RULE,
                           ["HM-ALIGN-MALOC", "HM-ALIGN-MALLOC"]),
    "unknown --acl-cann-release": (["--acl-lib", str(LIB), "--acl-cann-release", "9.9.9"], {}, Problem.UNKNOWN_RELEASE,
                                   ["9.9.9", "8.5.0", "9.1.0"]),
    "unparsable library version": (["--acl-lib", str(LIB)], {"ACLSIM_CANN_VERSION": "banana"}, Problem.UNKNOWN_RELEASE,
                                   ["'banana'", "not X.Y.Z", "--acl-cann-release"]),
    "library older than every release": (["--acl-lib", str(LIB)], {"ACLSIM_CANN_VERSION": "8.0.RC3"},
                                         Problem.UNKNOWN_RELEASE, ["8.0.RC3", "older than every release", "8.5.0"]),
}


@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_a_setup_mistake_is_one_message_and_its_own_exit_status(sim_built, tmp_path, mistake):
    args, env, status, words = MISTAKES[mistake]
    if LIBZ is None and "libz" in mistake:
        pytest.fail("no libz.so.1 on this machine to stand in for a library that is not ACL")
    report = tmp_path / "reports"
    report.mkdir()
    (report / "summary.json").write_text(json.dumps({"verdict": "PASS"}))  # an earlier run's verdict
    proc = subprocess.run([*KIT, "run", "--no-html", "-n", "1",
                           "--acl-report-dir", str(report), *args], cwd=tmp_path, env=child_env(**env),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == status, proc.stdout + proc.stderr
    message = proc.stderr.strip().splitlines()
    assert 1 <= len(message) <= 3 and message[0].startswith("acl-conformance: setup error: "), proc.stderr
    assert all(word in proc.stderr for word in words), proc.stderr
    assert "make sim" not in proc.stderr  # a CANN user is told about ASCEND_HOME_PATH, not the simulator
    assert "Traceback" not in proc.stdout + proc.stderr and "passed" not in proc.stdout
    assert not (report / "summary.json").exists() and not (report / "junit.xml").exists()


def test_plain_pytest_stops_with_the_same_status(sim_built, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "conformance.session.plugin", "-q",
                           "--acl-report-dir", str(tmp_path), "--acl-lib", str(LIB), "--acl-product", "atlas_a9",
                           str(ROOT / "acl_hostmem_generated" / "cases")], cwd=tmp_path, env=child_env(),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == Problem.UNKNOWN_PRODUCT, proc.stdout + proc.stderr
    assert proc.stdout.strip() == "" and len(proc.stderr.strip().splitlines()) <= 3


def test_certify_checks_the_setup_before_it_runs(sim_built, tmp_path):
    proc = subprocess.run([*KIT, "certify", "--acl-lib", str(LIB),
                           "--acl-product", "atlas_a9", "--out-dir", str(tmp_path / "out")], cwd=tmp_path,
                          env=child_env(), capture_output=True, text=True, timeout=120)
    assert proc.returncode == Problem.UNKNOWN_PRODUCT, proc.stdout + proc.stderr
    assert not (tmp_path / "out").exists()


def _run_on_built_library(tmp_path: Path, name: str, c_source: str) -> subprocess.CompletedProcess[str]:
    """`run` against a library built from ``c_source``."""
    source = tmp_path / f"{name}.c"
    source.write_text(c_source)
    library = tmp_path / f"lib{name}.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    return subprocess.run([*KIT, "run", "--no-html", "-n", "1", "--acl-lib",
                           str(library), "--acl-report-dir", str(tmp_path / "r")], cwd=tmp_path, env=child_env(),
                          capture_output=True, text=True, timeout=120)


def test_a_library_missing_required_entry_points_is_named(sim_built, tmp_path):
    proc = _run_on_built_library(tmp_path, "partial", "int aclInit(const char *p) { (void)p; return 0; }\n"
                                 "int aclFinalize(void) { return 0; }\n")
    assert proc.returncode == Problem.MISSING_SYMBOLS, proc.stdout + proc.stderr
    assert "aclrtGetDeviceCount, aclrtSetDevice, aclrtGetSocName" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) <= 3


FORGED_FACTS = '{"soc": "Ascend910B1", "cann_version": "9.1.0", "acl_api": null, "device_count": 2}'


def test_what_the_library_prints_cannot_stand_in_for_the_probes_answer(sim_built, tmp_path):
    """The probe's answer is its start-up record, tagged with the judge's nonce: a library that prints
    a full set of facts (on stdout, and as an untagged record on the record pipe) and lacks the entry
    points is still refused for what it lacks. The probe's argv names nothing of the kit."""
    escaped = FORGED_FACTS.replace('"', '\\"')
    proc = _run_on_built_library(tmp_path, "forger", f"""#include <stdio.h>
#include <string.h>
#include <unistd.h>
static const char forged[] = "{escaped}\\n";
__attribute__((constructor)) static void say(void) {{
    char argv[4096] = {{0}};
    FILE *f = fopen("/proc/self/cmdline", "r");
    size_t n = f ? fread(argv, 1, sizeof argv - 1, f) : 0;
    if (f) fclose(f);
    for (size_t i = 0; i < n; i++) if (argv[i] == 0) argv[i] = ' ';
    if (strstr(argv, "conformance") || strstr(argv, "preflight")) fputs("ARGV NAMES THE KIT\\n", stderr);
    fputs(forged, stdout); fflush(stdout);
    unsigned char header[4] = {{0, 0, 0, (unsigned char)(sizeof forged - 2)}};
    if (write(4, header, 4) == 4 && write(4, forged, sizeof forged - 2) < 0) return;
}}
__attribute__((destructor)) static void again(void) {{ fputs(forged, stdout); fflush(stdout); }}
int aclInit(const char *p) {{ (void)p; return 0; }}
int aclFinalize(void) {{ return 0; }}
""")
    assert proc.returncode == Problem.MISSING_SYMBOLS, proc.stdout + proc.stderr
    assert "ARGV NAMES THE KIT" not in proc.stdout + proc.stderr


@pytest.mark.parametrize("where", ["/proc/acl-reports", "under a file"])
def test_an_unwritable_report_directory_is_one_line_and_its_own_status(tmp_path, where):
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    report = tmp_path / "a-file" / "reports" if where == "under a file" else Path(where)
    for command in (["run", "--acl-report-dir", str(report)], ["certify", "--acl-report-dir", str(report)]):
        proc = subprocess.run([*KIT, *command, "--no-html", "-n", "1", "--acl-lib",
                               str(LIB)], cwd=tmp_path, env=child_env(), capture_output=True, text=True, timeout=120)
        message = proc.stderr.strip().splitlines()
        assert proc.returncode == Problem.REPORT_DIR_UNWRITABLE, proc.stdout[-2000:] + proc.stderr[-2000:]
        assert len(message) == 2 and str(report) in message[0] and "--acl-report-dir" in message[1], proc.stderr
        assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("command", ["run", "certify"])
def test_a_misspelt_option_names_the_nearest_one(tmp_path, command):
    proc = subprocess.run([*KIT, command, "--acl-lib", str(LIB), "--acl-rle",
                           "HM-ALIGN-MALLOC"], cwd=tmp_path, env=child_env(), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert proc.stderr.strip().splitlines() == [
        f"acl-conformance {command}: unknown option --acl-rle (did you mean --acl-rule?); "
        f"`acl-conformance {command} --help` lists the options"]
    assert proc.stdout == "" and not (tmp_path / "reports").exists()


def test_an_argument_pytest_refuses_is_a_bad_command_line_and_certify_says_it(sim_built, tmp_path):
    run = subprocess.run([*KIT, "run", "--no-html", "--acl-lib", str(LIB),
                          "--acl-report-dir", str(tmp_path / "r"), "--frobnicate"], cwd=tmp_path, env=child_env(),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "--frobnicate" in run.stderr, run.stderr[-2000:]
    out = tmp_path / "certification"
    certify = subprocess.run([*KIT, "certify", "--no-html", "--acl-lib", str(LIB),
                              "--out-dir", str(out), "--frobnicate"], cwd=tmp_path, env=child_env(),
                             capture_output=True, text=True, timeout=120)
    assert certify.returncode == 2, certify.stderr[-2000:]
    assert certify.stderr.strip().splitlines() == [
        "certify: the run exited 2 without a summary.json: python -m pytest: error: unrecognized arguments: "
        "--frobnicate"]
    assert ".staging-" not in certify.stderr and list(out.iterdir()) == []
