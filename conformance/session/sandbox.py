"""The sandbox of every process that loads the library under test (the preflight probe and the executors).

The library is the party with a motive to cheat, so the process that loads it runs in a
bubblewrap sandbox (Debian ``bubblewrap``; https://github.com/containers/bubblewrap):

- the whole filesystem is mounted read-only: the kit, its virtualenv, the generated package,
  the spec and the report directory cannot be changed (a ``.pth`` file, a rewritten catalog);
- ``/var/tmp`` is a fresh tmpfs, ``/dev`` a fresh minimal one, ``/tmp`` read-only: the only host
  paths the library may write are its executor's own temporary directory (its ``TMPDIR``, removed
  when the executor ends) and its call journal;
- it has its own PID namespace with its own ``/proc`` (bubblewrap's init is PID 1 there, so the
  executor keeps an ordinary process's signal semantics): no process of the judge, the CLI or
  their watchdog can be signalled, traced or read (``/proc/PID/environ``, ``fd``, ``mem``), and
  when the executor ends, bubblewrap's init ends and the kernel kills everything left in it;
  ``--die-with-parent`` ends it when the judge dies; ``--new-session`` keeps it off the terminal;
- its descriptors are the three standard ones and the executor's two pipes; none of the judge's
  (the seal pipe included) is inherited;
- it holds no capability, even when the run is root's (bubblewrap keeps root's by default): a library
  can neither remount the read-only root nor ptrace or read a process it may not (the slot's
  non-dumpable fork server, :mod:`conformance.executor.forkserver`).

What an ACL library needs on an Ascend server stays reachable (docs/THREATS.md, "What a real
server needs", cites the runtime's and driver's sources): the whole filesystem read-only (the
library's directory, ``ASCEND_HOME_PATH``, ``/usr/local/Ascend/driver``, ``/etc/ascend_install.info``),
the device nodes :data:`ASCEND_DEVICES`, the host network, and every ``--acl-sandbox-allow PATH``
(bound writable, devices included).
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .containment import children

#: The device nodes of an Ascend server the runtime and driver open (bound in when they exist).
ASCEND_DEVICES = ("/dev/davinci[0-9]*", "/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc",
                  "/dev/svm0", "/dev/hi_dvpp", "/dev/uburma", "/dev/ummu")
#: Host directories a fresh tmpfs replaces inside the sandbox. /tmp stays (read-only): the judge's own files
#: there (a plugin's check modules, a kit cloned under /tmp) must stay readable; the executor writes its TMPDIR.
SCRATCH = ("/var/tmp",)
#: What the run and the certificate say when no sandbox could be had.
NOT_SANDBOXED = "not sandboxed"
PROBE_LIMIT_S = 10.0


@dataclass(frozen=True)
class Sandbox:
    """How to start a process that loads the library: bubblewrap at ``bwrap`` with extra ``allow`` paths."""

    bwrap: str
    version: str
    allow: tuple[str, ...] = ()

    def describe(self) -> str:
        """One line for summary.json and the certificate."""
        return f"bubblewrap {self.version}: read-only filesystem, own PID namespace" + (
            f", allowed: {', '.join(self.allow)}" if self.allow else "")

    def command(self, argv: Sequence[str], *, writable: Iterable[str], readable: Iterable[str] = ()) -> list[str]:
        """``argv`` run in the sandbox, with ``writable`` host paths (which must exist) bound read-write and
        ``readable`` ones that live under a scratch directory bound back read-only (the kit in a /tmp clone)."""
        args = [self.bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        for scratch in SCRATCH:
            if os.path.isdir(scratch):
                args += ["--tmpfs", scratch]
        for path in sorted(set(readable)):
            if _under_scratch(path):
                args += ["--ro-bind-try", path, path]
        for pattern in ASCEND_DEVICES:
            for device in sorted(glob.glob(pattern)):
                args += ["--dev-bind", device, device]
        for path in self.allow:
            args += ["--dev-bind-try", path, path]
        for path in writable:
            args += ["--bind", path, path]
        args += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                 "--new-session", "--die-with-parent", "--cap-drop", "ALL", "--", *argv]
        return args


def sandboxed_chain(outer: int) -> set[int]:
    """The sandbox's own processes below bubblewrap's ``outer`` process: its init and the executor, the init's
    first child (what the library forked and orphaned later is the init's child too, but younger)."""
    chain: set[int] = set()
    for init in children(outer) or set():
        chain.add(init)
        below = children(init) or set()
        if below:
            chain.add(min(below, key=_start_time))
    return chain


def _start_time(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read(1024).decode(errors="replace")
        return int(text[text.rfind(")") + 2:].split()[19])
    except (OSError, ValueError, IndexError):
        return 1 << 62


def _under_scratch(path: str) -> bool:
    return any(path == scratch or path.startswith(scratch + "/") for scratch in SCRATCH)


@functools.lru_cache(maxsize=4)
def find_sandbox(allow: tuple[str, ...] = ()) -> Sandbox | None:
    """The sandbox of this machine, or None when bubblewrap is missing or cannot make namespaces here
    (an unprivileged container without user namespaces); tried once per process."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return None
    try:
        version = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=PROBE_LIMIT_S,
                                 check=False).stdout.split()[-1:]
        trial = Sandbox(bwrap, version[0] if version else "?", allow)
        done = subprocess.run(trial.command(["true"], writable=()), capture_output=True, timeout=PROBE_LIMIT_S,
                              check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return trial if done.returncode == 0 else None


def sandbox_state(allow: Sequence[str]) -> str:
    """What summary.json and the certificate record of the sandbox: its description, or :data:`NOT_SANDBOXED`."""
    sandbox = find_sandbox(tuple(allow))
    return sandbox.describe() if sandbox else NOT_SANDBOXED


def kit_paths() -> list[str]:
    """The host paths an executor must read: the kit's tree and the interpreter's installation."""
    paths = {str(Path(__file__).resolve().parents[2]), sys.prefix, sys.base_prefix,
             str(Path(sys.executable).resolve().parent.parent)}
    return sorted(paths)
