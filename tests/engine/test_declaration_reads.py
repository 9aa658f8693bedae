"""The analyzer reads a project's declarations (manifests, ``.gitattributes``, ``go.mod``)
through the shared file guard: a FIFO, a link out of the project or an oversized file is
passed over, never read."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.analyzer.manifests import declared_major
from engine.analyzer.ownership import read_ownership

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


def _returns(work: Callable[[], object]) -> object:
    """``work()``, run where a blocking read cannot hang the test run."""
    done: list[object] = []
    thread = threading.Thread(target=lambda: done.append(work()), daemon=True)
    thread.start()
    thread.join(20)
    assert done, "a read blocked on a FIFO"
    return done[0]


def test_a_manifest_linked_from_outside_or_a_fifo_is_passed_over(tmp_path: Path) -> None:
    outside = tmp_path.parent / f"{tmp_path.name}-Cargo.toml"
    outside.write_text('[workspace]\nmembers = ["crates/core"]\n', encoding="utf-8")
    (tmp_path / "Cargo.toml").symlink_to(outside)
    os.mkfifo(tmp_path / ".gitattributes")
    (tmp_path / "crates" / "core").mkdir(parents=True)
    (tmp_path / "crates" / "core" / "Cargo.toml").write_text(
        '[package]\nname = "core"\n', encoding="utf-8"
    )
    own = _returns(lambda: read_ownership(tmp_path))
    assert own.member("crates/core") is None  # type: ignore[attr-defined]


def test_a_fifo_or_an_outside_link_declares_no_version(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "go.mod")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.json"
    outside.write_text('{"version": "7.0.0"}', encoding="utf-8")
    (tmp_path / "package.json").symlink_to(outside)
    assert _returns(lambda: declared_major(tmp_path)) is None
