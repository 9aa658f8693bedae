"""all-MiniLM-L6-v2 as an ONNX graph, written node by node from the packaged weights.

No torch, no transformers: the weights are read from ``model.safetensors`` with
:mod:`safetensors.numpy` and the BERT encoder is spelt out with :mod:`onnx.helper`
(embeddings, six post-norm encoder layers with exact erf GELU, the padding mask added to
the attention scores), followed by sentence-transformers' mean pooling and L2
normalisation, so onnxruntime returns finished sentence vectors. The architecture's
sizes come from the package's ``config.json``; a model that is not a BERT of this kind
(another activation, position type or pooling) is refused rather than guessed at.

The graph keeps every ``Linear`` as ``MatMul`` by a constant weight plus ``Add``, the
form the int8 quantiser (weights only, ``MatMulConstBOnly``) recognises.

Development time only: ``scripts/build_model_graphs.py`` writes the graphs with it
(:mod:`.shipped_graphs`) and the files ship in the package (:mod:`.onnx_files`); ``onnx``
and ``safetensors`` come with the ``test`` extra, and memory-tui itself never imports
this module.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.embedding.int8_weights import (
    WEIGHTS_FILE,
    StoredTensor,
    UnsupportedModelError,
    stored_tensors,
)

if TYPE_CHECKING:
    import numpy.typing as npt

OPSET = 17
"""``LayerNormalization`` is an operator from opset 17 on."""
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OUTPUT = "embedding"
GRAPH_FILES = {"fp32": "model.onnx", "int8": "model-int8.onnx"}
"""The graphs shipped beside the weights: fp32 (queries) and int8 (documents)."""


class _Graph:
    """Nodes and initialisers collected in order, with fresh names."""

    def __init__(
        self, weights: dict[str, npt.NDArray[Any]], stored: dict[str, StoredTensor] | None
    ) -> None:
        self.weights = weights
        self.stored = stored
        self.nodes: list[Any] = []
        self.initializers: list[Any] = []
        self.sources: dict[str, tuple[str, bool]] = {}
        """Each float32 weight initialiser's tensor in the weights file, and whether it is
        that tensor transposed."""
        self._count = 0

    def name(self, hint: str) -> str:
        self._count += 1
        return f"{hint}_{self._count}"

    def const(self, hint: str, value: npt.NDArray[Any]) -> str:
        from onnx import numpy_helper

        name = self.name(hint)
        self.initializers.append(numpy_helper.from_array(value, name))
        return name

    def weight(self, key: str, *, transpose: bool = False) -> str:
        """The float32 weight ``key`` (transposed): an initialiser of its own, or, where the
        graph reads the weights file in place, its float16 bytes there cast to float32
        (onnxruntime folds the cast and the transpose once, when it loads the graph)."""
        import numpy as np

        if self.stored is not None:
            return self._stored_weight(key, transpose=transpose)
        value = self.weights[key]
        if transpose:
            value = np.ascontiguousarray(value.T)
        name = self.const(key, value.astype(np.float32, copy=False))
        self.sources[name] = (key, transpose)
        return name

    def rows(self, key: str, indices: str) -> str:
        """The rows ``indices`` of the float32 table ``key`` (an embedding). Where the graph
        reads the weights file in place, the rows are gathered from the float16 table and
        cast after: onnxruntime then casts the few rows a text needs on each run instead of
        the whole table (30,522 × 384 for the words) when it loads the graph, a third of
        its load time. The same vectors, to the bit: a float16 converts to float32 exactly,
        so casting commutes with picking rows."""
        if self.stored is None:
            return self.op("Gather", self.weight(key), indices)
        from onnx import TensorProto

        picked = self.op("Gather", self._stored_tensor(key), indices)
        return self.op("Cast", picked, to=TensorProto.FLOAT)

    def _stored_weight(self, key: str, *, transpose: bool) -> str:
        from onnx import TensorProto

        value = self.op("Cast", self._stored_tensor(key), to=TensorProto.FLOAT)
        return self.op("Transpose", value, perm=[1, 0]) if transpose else value

    def _stored_tensor(self, key: str) -> str:
        """An initialiser of the float16 tensor ``key``, read in place from the weights file."""
        from onnx import TensorProto

        assert self.stored is not None
        tensor = self.stored[key]
        name = self.name(key)
        proto = TensorProto(name=name, data_type=TensorProto.FLOAT16, dims=tensor.shape)
        proto.data_location = TensorProto.EXTERNAL
        for field, value in (
            ("location", WEIGHTS_FILE),
            ("offset", str(tensor.offset)),
            ("length", str(tensor.length)),
        ):
            entry = proto.external_data.add()
            entry.key, entry.value = field, value
        self.initializers.append(proto)
        return name

    def op(self, kind: str, *inputs: str, **attrs: Any) -> str:
        from onnx import helper

        out = self.name(kind.lower())
        self.nodes.append(helper.make_node(kind, list(inputs), [out], **attrs))
        return out

    def linear(self, x: str, prefix: str) -> str:
        """``x @ W.T + b`` of the ``Linear`` layer named ``prefix``."""
        product = self.op("MatMul", x, self.weight(f"{prefix}.weight", transpose=True))
        return self.op("Add", product, self.weight(f"{prefix}.bias"))

    def layer_norm(self, x: str, prefix: str, eps: float) -> str:
        return self.op(
            "LayerNormalization",
            x,
            self.weight(f"{prefix}.weight"),
            self.weight(f"{prefix}.bias"),
            axis=-1,
            epsilon=eps,
        )


def read_config(folder: Path) -> dict[str, Any]:
    """The model's ``config.json``, checked to be the BERT encoder this module writes.

    Raises:
        UnsupportedModelError: another architecture, activation or position encoding, or
            a pooling other than the mean.
    """
    config: dict[str, Any] = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    pooling_file = folder / "1_Pooling" / "config.json"
    pooling = json.loads(pooling_file.read_text(encoding="utf-8")) if pooling_file.is_file() else {}
    problems = []
    if config.get("model_type") != "bert":
        problems.append(f"model_type {config.get('model_type')!r} (expected 'bert')")
    if config.get("hidden_act") != "gelu":
        problems.append(f"hidden_act {config.get('hidden_act')!r} (expected 'gelu')")
    if config.get("position_embedding_type", "absolute") != "absolute":
        problems.append(f"position_embedding_type {config.get('position_embedding_type')!r}")
    if config["hidden_size"] % config["num_attention_heads"]:
        problems.append("hidden_size is not a multiple of num_attention_heads")
    if pooling and not pooling.get("pooling_mode_mean_tokens"):
        problems.append("pooling is not the mean of the tokens")
    if problems:
        raise UnsupportedModelError(f"{folder}: not a supported model: " + "; ".join(problems))
    return config


def build_model(folder: Path, *, in_place: bool = False) -> Any:
    """The ONNX model (an ``onnx.ModelProto``) of the sentence encoder in ``folder``.

    Inputs ``input_ids``, ``attention_mask`` and ``token_type_ids`` (int64, batch ×
    tokens); output ``embedding`` (float32, batch × hidden size, unit length). With
    ``in_place`` the graph holds no weights: it reads the float16 ones from the folder's
    ``model.safetensors`` (ONNX external data, by offset), so they are shipped once;
    otherwise every weight is a float32 initialiser (the form the int8 quantiser reads).
    """
    return build_model_with_sources(folder, in_place=in_place)[0]


def build_model_with_sources(
    folder: Path, *, in_place: bool = False
) -> tuple[Any, dict[str, tuple[str, bool]]]:
    """:func:`build_model`, and each float32 weight initialiser's tensor in the weights
    file with whether the graph holds it transposed (empty with ``in_place``)."""
    from onnx import TensorProto, helper
    from safetensors.numpy import load_file

    config = read_config(folder)
    weights = load_file(str(folder / WEIGHTS_FILE))
    stored = stored_tensors(folder / WEIGHTS_FILE) if in_place else None
    # Some exports name the encoder's tensors "bert.…"; the graph wants the bare names.
    g = _Graph({key.removeprefix("bert."): value for key, value in weights.items()}, stored)
    hidden = int(config["hidden_size"])
    eps = float(config.get("layer_norm_eps", 1e-12))
    x = _embeddings(g, eps)
    attention = _Attention.of(g, hidden, int(config["num_attention_heads"]))
    for i in range(int(config["num_hidden_layers"])):
        x = _encoder_layer(g, x, f"encoder.layer.{i}", attention, eps)
    _mean_pool_and_normalise(g, x, attention.mask)

    graph = helper.make_graph(
        g.nodes,
        "all-MiniLM-L6-v2",
        [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "tokens"]) for n in INPUTS],
        [helper.make_tensor_value_info(OUTPUT, TensorProto.FLOAT, ["batch", hidden])],
        g.initializers,
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="memory-tui"
    )
    # The IR version of the opset, not the newest the installed onnx knows: an older
    # onnxruntime refuses a newer IR.
    model.ir_version = 8
    return model, g.sources


def _embeddings(g: _Graph, eps: float) -> str:
    """Word + position (0 … tokens-1) + token type embeddings, then LayerNorm."""
    import numpy as np

    ids, _mask, types = INPUTS
    one = g.const("one", np.array(1, dtype=np.int64))
    tokens = g.op("Gather", g.op("Shape", ids), one)
    positions = g.op("Range", g.const("zero", np.array(0, dtype=np.int64)), tokens, one)
    words = g.rows("embeddings.word_embeddings.weight", ids)
    placed = g.rows("embeddings.position_embeddings.weight", positions)
    typed = g.rows("embeddings.token_type_embeddings.weight", types)
    summed = g.op("Add", g.op("Add", words, placed), typed)
    return g.layer_norm(summed, "embeddings.LayerNorm", eps)


@dataclass(frozen=True, slots=True)
class _Attention:
    """What every layer's self-attention shares: the float mask, its additive form and
    the constants that split the hidden size into heads and merge them back."""

    mask: str
    additive: str
    split_heads: str
    merge_heads: str
    scale: str

    @classmethod
    def of(cls, g: _Graph, hidden: int, heads: int) -> _Attention:
        import numpy as np
        from onnx import TensorProto

        # The padding mask as transformers adds it: 0 where attended, the float32 minimum
        # where padded, broadcast over heads and query positions (batch × 1 × 1 × tokens).
        mask = g.op("Cast", INPUTS[1], to=TensorProto.FLOAT)
        inverted = g.op("Sub", g.const("one_f", np.array(1.0, dtype=np.float32)), mask)
        lowest = g.const("lowest", np.array(np.finfo(np.float32).min, dtype=np.float32))
        axes = g.const("axes", np.array([1, 2], dtype=np.int64))
        head_size = hidden // heads
        return cls(
            mask=mask,
            additive=g.op("Unsqueeze", g.op("Mul", inverted, lowest), axes),
            split_heads=g.const("split", np.array([0, 0, heads, head_size], dtype=np.int64)),
            merge_heads=g.const("merge", np.array([0, 0, hidden], dtype=np.int64)),
            scale=g.const("scale", np.array(1.0 / math.sqrt(head_size), dtype=np.float32)),
        )


def _encoder_layer(g: _Graph, x: str, layer: str, attention: _Attention, eps: float) -> str:
    """One post-norm BERT layer: self-attention, then the feed-forward block."""
    import numpy as np

    def heads_of(name: str, perm: list[int]) -> str:
        projected = g.linear(x, f"{layer}.attention.self.{name}")
        return g.op("Transpose", g.op("Reshape", projected, attention.split_heads), perm=perm)

    query = heads_of("query", [0, 2, 1, 3])  # batch × heads × tokens × head_size
    key = heads_of("key", [0, 2, 3, 1])  # batch × heads × head_size × tokens
    value = heads_of("value", [0, 2, 1, 3])
    scores = g.op("Mul", g.op("MatMul", query, key), attention.scale)
    weights = g.op("Softmax", g.op("Add", scores, attention.additive), axis=-1)
    context = g.op("Transpose", g.op("MatMul", weights, value), perm=[0, 2, 1, 3])
    merged = g.op("Reshape", context, attention.merge_heads)
    attended = g.linear(merged, f"{layer}.attention.output.dense")
    x = g.layer_norm(g.op("Add", attended, x), f"{layer}.attention.output.LayerNorm", eps)

    inner = g.linear(x, f"{layer}.intermediate.dense")
    # Exact GELU, as transformers' "gelu": x · ½ · (1 + erf(x / √2)).
    root_half = g.const("inv_sqrt2", np.array(1 / math.sqrt(2), dtype=np.float32))
    erf = g.op("Erf", g.op("Mul", inner, root_half))
    half = g.op("Mul", inner, g.const("half", np.array(0.5, dtype=np.float32)))
    one = g.const("one_f", np.array(1.0, dtype=np.float32))
    activated = g.op("Mul", half, g.op("Add", erf, one))
    out = g.linear(activated, f"{layer}.output.dense")
    return g.layer_norm(g.op("Add", out, x), f"{layer}.output.LayerNorm", eps)


def _mean_pool_and_normalise(g: _Graph, x: str, mask: str) -> None:
    """The mean over the attended tokens (sentence-transformers' Pooling), then unit
    length (its Normalize: x / max(‖x‖, 1e-12)), as the graph's output."""
    import numpy as np
    from onnx import helper

    last_axis = g.const("last", np.array([-1], dtype=np.int64))
    token_axis = g.const("tokens", np.array([1], dtype=np.int64))
    weights_3d = g.op("Unsqueeze", mask, last_axis)
    total = g.op("ReduceSum", g.op("Mul", x, weights_3d), token_axis, keepdims=0)
    count = g.op("ReduceSum", weights_3d, token_axis, keepdims=0)
    floor = g.const("min_count", np.array(1e-9, dtype=np.float32))
    pooled = g.op("Div", total, g.op("Max", count, floor))
    norm = g.op("ReduceL2", pooled, axes=[-1], keepdims=1)  # axes an attribute until opset 18
    smallest = g.const("min_norm", np.array(1e-12, dtype=np.float32))
    g.nodes.append(helper.make_node("Div", [pooled, g.op("Max", norm, smallest)], [OUTPUT]))


def save_model(model: Any, path: Path) -> None:
    """Write ``model`` deterministically (the same graph gives the same bytes)."""
    path.write_bytes(model.SerializeToString(deterministic=True))
