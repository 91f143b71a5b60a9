"""Atomic writes of report files, so that a crash never leaves half a report behind."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..harness.attachment import Attachment


def write_text(path: Path, text: str) -> None:
    """Write a file atomically (temp file + rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_json(path: Path, data: object) -> None:
    """Write JSON atomically, indented, keys in insertion order."""
    write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


ARTIFACTS_DIR = "artifacts"


def artifact_folder_name(case_id: str) -> str:
    """The folder of ``artifacts/`` that holds a case's attachments."""
    return "".join(ch if ch.isalnum() or ch in "-_.=," else "_" for ch in case_id)


def save_attachments(report_dir: Path, case_id: str, attachments: Iterable[Attachment]) -> Path:
    """Write a case's attachments (objects with ``name`` and ``text``) to ``artifacts/<case>/``; returns the folder."""
    folder = Path(report_dir) / ARTIFACTS_DIR / artifact_folder_name(case_id)
    for attachment in attachments:
        write_text(folder / attachment.name, attachment.text)
    return folder
