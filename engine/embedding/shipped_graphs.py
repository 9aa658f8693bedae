"""The ONNX graphs memory-tui ships, written from the weights (:func:`write_graphs`).

The fp32 graph of :mod:`.onnx_graph` reads the float16 weights in place. The int8 one:
:func:`quantised_int8_model` quantises the fp32-initialiser graph of :mod:`.onnx_graph`
(weights only, int8 per output channel; the word, position and token type embeddings
uint8 per tensor, as onnxruntime's dynamic quantiser does). :func:`write_int8_graph`
ships it without the quantised tensors: each becomes a placeholder
(:data:`~.int8_weights.PLACEHOLDER`) and ``model-int8.json`` names its float16 source and
quantisation, so :func:`~.int8_weights.quantised_weights` computes the same bytes when the
graph loads. It checks that before writing either file: a quantiser that computed otherwise
would stop the build, not change document vectors.

Development time only, like :mod:`.onnx_graph` (``onnx`` is in the ``test`` extra).
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from pathlib import Path
from typing import Any

from engine.embedding.int8_weights import (
    PLACEHOLDER,
    WEIGHTS_FILE,
    QuantisedWeight,
    quantised_weights,
    write_spec,
)

QUANTISED_SUFFIX = "_quantized"
"""What onnxruntime's quantiser appends to the name of a weight it quantises."""


class QuantiserMismatchError(RuntimeError):
    """The weights computed at load would differ from the quantiser's."""


def quantised_int8_model(folder: Path) -> tuple[Any, list[QuantisedWeight]]:
    """The int8 graph of the model in ``folder`` as onnxruntime's quantiser writes it
    (an ``onnx.ModelProto`` holding every quantised tensor), and how each quantised
    tensor follows from a float16 tensor of the weights file."""
    import onnx

    from engine.embedding.onnx_graph import build_model_with_sources, save_model

    model, sources = build_model_with_sources(folder)
    with tempfile.TemporaryDirectory() as scratch:
        source, quantised = Path(scratch) / "fp32.onnx", Path(scratch) / "int8.onnx"
        save_model(model, source)
        _quantize_int8(source, quantised)
        full = onnx.load(str(quantised))
    return full, _describe(full, sources)


def _describe(full: Any, sources: dict[str, tuple[str, bool]]) -> list[QuantisedWeight]:
    """Each quantised weight of ``full``: the quantiser's choices read back from the graph
    (its type; per channel when its scale has one value per column) and verified by
    :func:`write_int8_graph`."""
    from onnx import TensorProto

    scales = {t.name: list(t.dims) for t in full.graph.initializer}
    spec = []
    for tensor in full.graph.initializer:
        base = tensor.name.removesuffix(QUANTISED_SUFFIX)
        if base == tensor.name or base not in sources:
            continue
        key, transpose = sources[base]
        signed = tensor.data_type == TensorProto.INT8
        per_channel = scales[f"{base}_scale"] not in ([], [1])
        spec.append(
            QuantisedWeight(
                name=tensor.name,
                source=key,
                transpose=transpose,
                dtype="int8" if signed else "uint8",
                # onnxruntime's defaults: signed weights symmetric, unsigned ones not.
                symmetric=signed,
                axis=len(tensor.dims) - 1 if per_channel else None,
            )
        )
    return spec


def write_graphs(folder: Path, out: Path) -> dict[str, Path]:
    """Write the graphs memory-tui ships for the model in ``folder`` into ``out``:
    :data:`GRAPH_FILES` ``fp32`` reads the weights in place (so ``out`` holds them too,
    or is ``folder``), ``int8`` is the fp32-initialiser graph quantised by onnxruntime,
    shipped without its quantised weights (:func:`write_int8_graph`; ``model-int8.json``
    says how to compute them). Both are checked by :func:`onnx.checker.check_model`;
    the same weights and library versions give the same bytes."""
    import onnx

    from engine.embedding.onnx_graph import GRAPH_FILES, build_model, save_model

    written = {}
    fp32 = out / GRAPH_FILES["fp32"]
    save_model(build_model(folder, in_place=True), fp32)
    if out.resolve() != folder.resolve():
        shutil.copyfile(folder / WEIGHTS_FILE, out / WEIGHTS_FILE)
    onnx.checker.check_model(str(fp32))  # by path: the weights file is read beside it
    written["fp32"] = fp32
    written["int8"] = write_int8_graph(folder, out / GRAPH_FILES["int8"])
    return written


def write_int8_graph(folder: Path, out: Path) -> Path:
    """Write the int8 graph of the model in ``folder`` to ``out``, without its quantised
    weights, and ``model-int8.json`` beside it; ``out``'s folder must hold the weights
    file (it is where they are read from at load).

    Raises:
        QuantiserMismatchError: the weights computed at load would not be the quantiser's.
    """
    import onnx
    from onnx import TensorProto, numpy_helper

    from engine.embedding.onnx_graph import save_model

    full, spec = quantised_int8_model(folder)
    # Checked whole: the placeholders' file does not exist, and the checker looks for it.
    onnx.checker.check_model(full)
    computed = quantised_weights(out.parent, spec)
    by_name = {t.name: t for t in full.graph.initializer}
    for weight in spec:
        expected = numpy_helper.to_array(by_name[weight.name])
        got = computed[weight.name]
        if expected.dtype != got.dtype or expected.tobytes() != got.tobytes():
            raise QuantiserMismatchError(
                f"{weight.name}: the weights computed at load differ from the quantiser's"
            )
        tensor = by_name[weight.name]
        dims, kind = list(tensor.dims), tensor.data_type
        tensor.Clear()
        tensor.name, tensor.data_type = weight.name, kind
        tensor.dims.extend(dims)
        tensor.data_location = TensorProto.EXTERNAL
        entry = tensor.external_data.add()
        entry.key, entry.value = "location", PLACEHOLDER
    write_spec(out.parent, spec)
    save_model(full, out)
    return out


def _quantize_int8(source: Path, out: Path) -> None:
    """Weights only, per output channel; the attention products of two activations stay
    fp32. Quantising those too halved the worst-case cosine to fp32 (0.79 vs 0.98) and
    was no faster (bench/RESULTS.md)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    # The quantiser advises "pre-processing" through the root logger; that advice
    # concerns models whose shapes it can infer better.
    advice = _DropAdvice()
    logging.getLogger().addFilter(advice)
    try:
        quantize_dynamic(
            str(source),
            str(out),
            weight_type=QuantType.QInt8,
            per_channel=True,
            extra_options={"MatMulConstBOnly": True},
        )
    finally:
        logging.getLogger().removeFilter(advice)


class _DropAdvice:
    """Drops onnxruntime's quantisation advice, lets everything else through."""

    def filter(self, record: Any) -> bool:
        return not str(record.msg).startswith("Please consider to run pre-processing")
