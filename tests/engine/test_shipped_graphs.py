"""The ONNX graphs shipped beside the weights: what scripts/build_model_graphs.py writes,
intact, and a clear error (never a wrong vector) when a file is missing or damaged."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.embedding import onnx_files
from engine.embedding.base import MODEL_SHA256, model_path
from engine.embedding.int8_weights import (
    PLACEHOLDER,
    SPEC_FILE,
    QuantisedWeight,
    QuantType,
    quantise,
    quantised_weights,
    read_spec,
)
from engine.embedding.onnx_embedder import OnnxEmbedder
from engine.embedding.onnx_files import DamagedModelError, damaged_model_files
from engine.services.health import _check_model
from engine.services.health_report import HealthReport, Status

QUANTISER_INT8_SHA256 = "1346a30521a21f36a8c546f7383a782a84bc905da3b446a77305e89b6a0115e3"
"""SHA-256 of the int8 graph onnxruntime's quantiser writes for the shipped weights (with
onnxruntime 1.32): the file shipped whole until its weights were computed at load."""


@pytest.mark.slow
def test_the_shipped_graphs_are_what_the_script_builds(tmp_path: Path) -> None:
    from engine.embedding.shipped_graphs import write_graphs

    written = write_graphs(model_path(), tmp_path)
    assert sorted(written) == ["fp32", "int8"]
    for variant, path in written.items():
        shipped = onnx_files.onnx_path(variant)
        assert shipped.name == path.name
        assert shipped.read_bytes() == path.read_bytes(), f"{shipped} is stale: rebuild it"
    spec = model_path() / SPEC_FILE
    assert spec.read_bytes() == (tmp_path / SPEC_FILE).read_bytes(), f"{spec} is stale"


def _with_computed_weights() -> bytes:
    """The shipped int8 graph with the weights computed at load put in its placeholders."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(onnx_files.onnx_path("int8")), load_external_data=False)
    computed = quantised_weights(model_path())
    placeholders = [
        t for t in graph.graph.initializer if t.data_location == onnx.TensorProto.EXTERNAL
    ]
    assert {t.name for t in placeholders} == set(computed)
    assert {e.value for t in placeholders for e in t.external_data} == {PLACEHOLDER}
    for tensor in placeholders:
        tensor.CopyFrom(numpy_helper.from_array(computed[tensor.name], tensor.name))
    data: bytes = graph.SerializeToString(deterministic=True)
    return data


def test_the_int8_graph_with_its_computed_weights_is_the_quantisers_byte_for_byte() -> None:
    # So document vectors are those of the graph shipped whole before (and the floors
    # measured on it hold); the slow test below runs the quantiser itself.
    assert onnx_files.onnx_path("int8").stat().st_size < 400_000  # 22.8 MB with its weights
    assert hashlib.sha256(_with_computed_weights()).hexdigest() == QUANTISER_INT8_SHA256


@pytest.mark.slow
def test_the_weights_computed_at_load_are_the_quantisers_own() -> None:
    from engine.embedding.shipped_graphs import quantised_int8_model

    full, spec = quantised_int8_model(model_path())
    assert [w.to_json() for w in spec] == [w.to_json() for w in read_spec(model_path())]
    assert _with_computed_weights() == full.SerializeToString(deterministic=True)


def test_the_int8_graph_alone_fails_naming_its_missing_weights() -> None:
    import onnxruntime as ort

    with pytest.raises(Exception, match=PLACEHOLDER):  # never garbage read as weights
        ort.InferenceSession(str(onnx_files.onnx_path("int8")), providers=["CPUExecutionProvider"])


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


def _embedding_gathers(model: Any) -> list[Any]:
    """The Gather nodes that pick rows of an embedding table in ``model`` (onnx)."""
    nodes = model.graph.node
    return [n for n in nodes if n.op_type == "Gather" and "embeddings" in n.input[0]]


def test_the_fp32_graph_casts_the_rows_it_picks_not_whole_tables() -> None:
    # Casting the whole word table (30,522 x 384) was a third of the model's load time,
    # paid by every cold vector search for the few rows a query uses.
    import onnx

    graph = onnx.load(str(onnx_files.onnx_path("fp32")), load_external_data=False)
    float16 = {t.name for t in graph.graph.initializer if t.data_type == onnx.TensorProto.FLOAT16}
    gathers = _embedding_gathers(graph)
    assert len(gathers) == 3  # words, positions, token types
    assert all(g.input[0] in float16 for g in gathers)
    casts = {n.input[0]: n for n in graph.graph.node if n.op_type == "Cast"}
    assert all(casts[g.output[0]].attribute[0].i == onnx.TensorProto.FLOAT for g in gathers)


def test_picking_rows_before_casting_gives_the_same_vectors_bit_for_bit() -> None:
    """The shipped graph against the same graph casting each table whole before picking
    its rows (as it was built before): byte-identical vectors, one text or a batch."""
    import onnx
    import onnxruntime as ort
    from onnx import helper
    from tokenizers import Tokenizer

    from engine.embedding.onnx_embedder import MAX_TOKENS

    graph = onnx.load(str(onnx_files.onnx_path("fp32")))  # weights read in: no file beside
    nodes = list(graph.graph.node)
    gathers = _embedding_gathers(graph)
    assert len(gathers) == 3
    for gather in gathers:
        cast = next(n for n in nodes if n.op_type == "Cast" and n.input[0] == gather.output[0])
        table, indices = gather.input
        whole = helper.make_node("Cast", [table], [f"{table}_float"], to=onnx.TensorProto.FLOAT)
        picked = helper.make_node("Gather", [f"{table}_float", indices], list(cast.output))
        at = nodes.index(gather)
        nodes.remove(cast)
        nodes[at : at + 1] = [whole, picked]
    del graph.graph.node[:]
    graph.graph.node.extend(nodes)
    onnx.checker.check_model(graph)
    before = ort.InferenceSession(graph.SerializeToString(), providers=["CPUExecutionProvider"])
    tokenizer = Tokenizer.from_file(str(model_path() / "tokenizer.json"))
    tokenizer.enable_truncation(MAX_TOKENS)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    shipped = OnnxEmbedder()
    texts = ["sync waves", "Ünïcödé, 日本語 and 🚀", "word " * (2 * MAX_TOKENS), "[UNK] a"]
    for batch in [[t] for t in texts] + [texts]:
        encodings = tokenizer.encode_batch(batch)
        ids = np.asarray([e.ids for e in encodings], dtype=np.int64)
        mask = np.asarray([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        expected = before.run(None, feeds)[0]
        assert shipped.embed_documents(batch).tobytes() == expected.tobytes()


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
    [
        ("int8", "model-int8.onnx"),
        ("int8", "model-int8.json"),
        ("int8", "model.safetensors"),
        ("fp32", "model.onnx"),
        ("fp32", "model.safetensors"),
    ],
)
def test_a_missing_file_stops_loading_with_the_fix(
    model_copy: Path, variant: onnx_files.Variant, remove: str
) -> None:
    (model_copy / remove).unlink()
    embedder = OnnxEmbedder(variant)
    with pytest.raises(DamagedModelError, match="reinstall memory-tui") as raised:
        embedder.embed_query("no model")
    assert str(model_copy / onnx_files.GRAPH_FILES[variant]) in str(raised.value)
    assert remove in str(raised.value)
    assert not embedder.loaded


@pytest.mark.parametrize(
    ("spec", "named"),
    [
        ("not json", "is not a description of int8 weights"),
        ('{"tensors": [{"name": "w"}]}', "is not a description of int8 weights"),
        (
            '{"tensors": [{"name": "w", "source": "no.such.weight", "transpose": false,'
            ' "dtype": "int8", "symmetric": true, "axis": 1}]}',
            "holds no tensor 'no.such.weight'",
        ),
        (
            '{"tensors": [{"name": "w", "source": "embeddings.word_embeddings.weight",'
            ' "transpose": false, "dtype": "uint8", "symmetric": true, "axis": null}]}',
            "asks for uint8 \\(symmetric\\), not computed here",
        ),
        (
            '{"tensors": [{"name": "w", "source": "embeddings.word_embeddings.weight",'
            ' "transpose": false, "dtype": "int8", "symmetric": true, "axis": 2}]}',
            "w has no axis 2",
        ),
    ],
)
def test_a_damaged_int8_description_stops_loading_with_the_fix(
    model_copy: Path, spec: str, named: str
) -> None:
    (model_copy / SPEC_FILE).write_text(spec)
    with pytest.raises(DamagedModelError, match=named) as raised:
        OnnxEmbedder("int8").embed_documents(["a note"])
    assert "reinstall memory-tui" in str(raised.value)


@pytest.mark.parametrize(
    ("dtype", "symmetric", "axis"),
    [("int8", True, 0), ("int8", True, 1), ("int8", True, None), ("int8", False, 1),
     ("uint8", False, None), ("uint8", False, 0)],
)  # fmt: skip
def test_quantise_computes_what_onnxruntimes_quantiser_does(
    dtype: QuantType, symmetric: bool, axis: int | None
) -> None:
    from onnx import TensorProto
    from onnxruntime.quantization.quant_utils import quantize_data

    rng = np.random.default_rng(7)
    matrix = (rng.standard_normal((300, 70)) * 0.2).astype(np.float16)
    matrix[:, 3] = 0  # a channel of zeros: onnxruntime's scale 1 and zero point 0
    matrix[5, :] = np.abs(matrix[5, :])  # a row of values ≥ 0: the range widened to 0
    matrix[7, :] = -np.abs(matrix[7, :]) - np.float16(0.5)  # a row below 0
    matrix[0, 0], matrix[1, 1] = np.float16("-0"), np.float16(65504)  # signed zero, largest
    weight = QuantisedWeight("w", "w", False, dtype, symmetric, axis)
    got = quantise(matrix, weight, axis)

    kind = TensorProto.INT8 if dtype == "int8" else TensorProto.UINT8
    values = matrix.astype(np.float32)
    channels = (
        [values] if axis is None else [values.take(i, axis) for i in range(values.shape[axis])]
    )
    expected = [quantize_data(c.flatten(), kind, symmetric)[2] for c in channels]
    want = expected[0].reshape(values.shape) if axis is None else np.stack(expected, axis=axis)
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


def test_a_truncated_graph_stops_loading_with_the_fix(model_copy: Path) -> None:
    graph = model_copy / "model-int8.onnx"
    graph.write_bytes(graph.read_bytes()[:1000])
    with pytest.raises(DamagedModelError, match=r"cannot be loaded .*reinstall memory-tui"):
        OnnxEmbedder("int8").embed_documents(["a note"])


@pytest.mark.slow
def test_the_build_stops_when_the_load_would_compute_other_weights(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.embedding import int8_weights
    from engine.embedding.shipped_graphs import QuantiserMismatchError, write_int8_graph

    real = int8_weights.quantise

    def off_by_one(*args: object, **kwargs: object) -> np.ndarray:
        values = real(*args, **kwargs)  # type: ignore[arg-type]
        values.flat[0] -= 1
        return values

    monkeypatch.setattr(int8_weights, "quantise", off_by_one)
    shutil.copyfile(model_path() / "model.safetensors", tmp_path / "model.safetensors")
    with pytest.raises(QuantiserMismatchError, match="differ from the quantiser's"):
        write_int8_graph(model_path(), tmp_path / "model-int8.onnx")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.safetensors"]  # nothing written
