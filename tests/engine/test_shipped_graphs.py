"""The ONNX graphs shipped beside the weights: what scripts/build_model_graphs.py writes,
intact, and a clear error (never a wrong vector) when a file is missing or damaged."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from engine.embedding import onnx_files
from engine.embedding.base import MODEL_SHA256, model_path
from engine.embedding.onnx_embedder import OnnxEmbedder
from engine.embedding.onnx_files import DamagedModelError, damaged_model_files
from engine.services.health import _check_model
from engine.services.health_report import HealthReport, Status


@pytest.mark.slow
def test_the_shipped_graphs_are_what_the_script_builds(tmp_path: Path) -> None:
    from engine.embedding.onnx_graph import write_graphs

    written = write_graphs(model_path(), tmp_path)
    assert sorted(written) == ["fp32", "int8"]
    for variant, path in written.items():
        shipped = onnx_files.onnx_path(variant)
        assert shipped.name == path.name
        assert shipped.read_bytes() == path.read_bytes(), f"{shipped} is stale: rebuild it"


def test_the_fp32_graph_reads_the_shipped_weights_in_place() -> None:
    import onnx

    graph = onnx.load(str(onnx_files.onnx_path("fp32")), load_external_data=False)
    stored = [t for t in graph.graph.initializer if t.data_location == onnx.TensorProto.EXTERNAL]
    assert len(stored) == 101  # every float16 tensor of model.safetensors but the pooler's
    assert all(t.data_type == onnx.TensorProto.FLOAT16 for t in stored)
    assert {e.value for t in stored for e in t.external_data if e.key == "location"} == {
        "model.safetensors"
    }
    assert onnx_files.onnx_path("fp32").stat().st_size < 100_000  # no second copy of them


def test_the_checksums_are_those_of_the_shipped_files() -> None:
    for name, expected in MODEL_SHA256.items():
        assert hashlib.sha256((model_path() / name).read_bytes()).hexdigest() == expected
    assert damaged_model_files() == []


@pytest.fixture
def model_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the model folder that the embedder and the checks use instead."""
    folder = tmp_path / "model"
    shutil.copytree(model_path(), folder)
    monkeypatch.setattr(onnx_files, "model_path", lambda: folder)
    monkeypatch.setattr("engine.embedding.onnx_embedder.model_path", lambda: folder)
    monkeypatch.setattr("engine.services.health.model_path", lambda: folder)
    # No sentence-transformers to fall back on: the error itself must say what to do.
    monkeypatch.setattr("engine.embedding.onnx_embedder.reference_installed", lambda: False)
    return folder


def _flip_last_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))


def test_a_damaged_file_is_named_by_doctor(model_copy: Path) -> None:
    _flip_last_byte(model_copy / "model.safetensors")
    (model_copy / "model-int8.onnx").unlink()
    problems = damaged_model_files()
    assert problems[0].startswith("model.safetensors is damaged (SHA-256 ")
    assert problems[1:] == ["model-int8.onnx is missing"]
    report = HealthReport()
    _check_model(report)
    [check] = report.checks
    assert check.status is Status.PROBLEM
    assert "model-int8.onnx is missing" in check.detail
    assert "reinstall memory-tui" in check.fix


def test_an_intact_model_is_reported_ok() -> None:
    report = HealthReport()
    _check_model(report)
    [check] = report.checks
    assert check.status is Status.OK and "ONNX graphs intact" in check.detail


@pytest.mark.parametrize(
    ("variant", "remove"),
    [("int8", "model-int8.onnx"), ("fp32", "model.onnx"), ("fp32", "model.safetensors")],
)
def test_a_missing_file_stops_loading_with_the_fix(
    model_copy: Path, variant: onnx_files.Variant, remove: str
) -> None:
    (model_copy / remove).unlink()
    embedder = OnnxEmbedder(variant)
    with pytest.raises(DamagedModelError, match="reinstall memory-tui") as raised:
        embedder.embed_query("no model")
    assert str(model_copy / onnx_files.GRAPH_FILES[variant]) in str(raised.value)
    assert not embedder.loaded


def test_a_truncated_graph_stops_loading_with_the_fix(model_copy: Path) -> None:
    graph = model_copy / "model-int8.onnx"
    graph.write_bytes(graph.read_bytes()[:1000])
    with pytest.raises(DamagedModelError, match=r"cannot be loaded .*reinstall memory-tui"):
        OnnxEmbedder("int8").embed_documents(["a note"])
