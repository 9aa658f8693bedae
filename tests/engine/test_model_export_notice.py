"""The one-time model export is announced through a callback (the engine draws nothing)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.embedding import onnx_export


def test_an_export_runs_inside_the_notice_and_a_present_one_is_not_announced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(onnx_export.CACHE_ENV, str(tmp_path))
    events: list[str] = []

    def fake_export(out: Path) -> None:
        events.append("export")
        out.write_bytes(b"onnx")

    @contextlib.contextmanager
    def notice(what: str) -> Iterator[None]:
        events.append(f"start {what}")
        yield
        events.append("end")

    monkeypatch.setattr(onnx_export, "_export_fp32", fake_export)
    onnx_export.on_model_export(notice)
    try:
        first = onnx_export.ensure_onnx("fp32")
        again = onnx_export.ensure_onnx("fp32")
    finally:
        onnx_export.on_model_export(None)

    assert first == again and first.read_bytes() == b"onnx"
    assert events == [
        "start Preparing the embedding model (fp32, once per machine)",
        "export",
        "end",
    ]
