"""The int8 document graph's weights, computed when it loads from the shipped float16 ones.

``model-int8.onnx`` ships without its quantised weight tensors (22.6 MB of int8 and uint8
data): each is a function of a float16 tensor already in ``model.safetensors``, so the
graph keeps only a placeholder per tensor (ONNX external data at :data:`PLACEHOLDER`, a
file that never exists) and ``model-int8.json`` names the float16 tensor and the
quantisation that give it. :func:`quantised_weights` computes them with numpy the way
onnxruntime's quantiser did when ``scripts/build_model_graphs.py`` wrote the graph (same
ranges, scales, rounding and clipping, so the same bytes: the build checks it, and so
does ``tests/engine/test_shipped_graphs.py``), and onnxruntime receives them through
``SessionOptions.add_external_initializers``. The scales and zero points stay in the
graph: they are small, and the values computed here are only right with them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

WEIGHTS_FILE = "model.safetensors"
SPEC_FILE = "model-int8.json"
"""Beside the int8 graph: each stripped tensor's float16 source and quantisation."""
PLACEHOLDER = "computed-at-load"
"""The external-data location of the stripped tensors: no such file is ever written, so
a graph loaded without the computed tensors fails naming it instead of reading garbage."""

QuantType = Literal["int8", "uint8"]
_RANGES: dict[tuple[QuantType, bool], tuple[int, int]] = {
    # onnxruntime.quantization.quant_utils: ONNX_INT_TYPE_RANGE and, for symmetric int8,
    # ONNX_INT_TYPE_SYMMETRIC_RANGE.
    ("int8", True): (-127, 127),
    ("int8", False): (-128, 127),
    ("uint8", False): (0, 255),
}
_FULL_RANGE: dict[QuantType, tuple[int, int]] = {"int8": (-128, 127), "uint8": (0, 255)}


class UnsupportedModelError(ValueError):
    """The packaged model is not the BERT sentence encoder memory-tui runs, or its int8
    description asks for a quantisation this module does not compute."""


@dataclass(frozen=True, slots=True)
class StoredTensor:
    """Where a float16 tensor's bytes lie in the weights file (safetensors' layout)."""

    shape: tuple[int, ...]
    offset: int
    length: int


def stored_tensors(path: Path) -> dict[str, StoredTensor]:
    """The float16 tensors of a safetensors file, by name (without a ``bert.`` prefix),
    with their place in it.

    Raises:
        UnsupportedModelError: a tensor that is not float16.
    """
    with path.open("rb") as fh:
        size = int.from_bytes(fh.read(8), "little")
        header: dict[str, Any] = json.loads(fh.read(size))
    header.pop("__metadata__", None)
    start = 8 + size
    out = {}
    for key, entry in header.items():
        if entry["dtype"] != "F16":
            raise UnsupportedModelError(f"{path}: {key} is {entry['dtype']}, not float16")
        first, end = entry["data_offsets"]
        out[key.removeprefix("bert.")] = StoredTensor(
            tuple(entry["shape"]), start + first, end - first
        )
    return out


@dataclass(frozen=True, slots=True)
class QuantisedWeight:
    """One tensor of the int8 graph computed at load: the float16 tensor ``source`` as
    float32 (transposed where the graph multiplies by its transpose), quantised to
    ``dtype`` per channel along ``axis`` (``None``: one scale for the whole tensor)."""

    name: str
    source: str
    transpose: bool
    dtype: QuantType
    symmetric: bool
    axis: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "source": self.source,
            "transpose": self.transpose,
            "dtype": self.dtype,
            "symmetric": self.symmetric,
            "axis": self.axis,
        }


def read_spec(folder: Path) -> list[QuantisedWeight]:
    """The tensors ``model-int8.json`` in ``folder`` describes.

    Raises:
        OSError: the file cannot be read.
        UnsupportedModelError: it is not a description this module can compute.
    """
    path = folder / SPEC_FILE
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))["tensors"]
        spec = [QuantisedWeight(**entry) for entry in entries]
    except (ValueError, KeyError, TypeError) as exc:
        raise UnsupportedModelError(f"{path} is not a description of int8 weights") from exc
    for weight in spec:
        if (weight.dtype, weight.symmetric) not in _RANGES:
            raise UnsupportedModelError(
                f"{path}: {weight.name} asks for {weight.dtype} "
                f"({'symmetric' if weight.symmetric else 'asymmetric'}), not computed here"
            )
        if weight.axis not in (None, 0, 1):
            raise UnsupportedModelError(f"{path}: {weight.name} has no axis {weight.axis}")
    return spec


def write_spec(folder: Path, spec: list[QuantisedWeight]) -> Path:
    """Write ``model-int8.json`` into ``folder`` (the same spec gives the same bytes)."""
    path = folder / SPEC_FILE
    text = json.dumps({"tensors": [w.to_json() for w in spec]}, indent=1) + "\n"
    path.write_text(text, encoding="utf-8")
    return path


def quantised_weights(
    folder: Path, spec: list[QuantisedWeight] | None = None
) -> dict[str, npt.NDArray[Any]]:
    """Every tensor ``model-int8.json`` in ``folder`` describes (or ``spec``), computed
    from the folder's ``model.safetensors``, by the name the int8 graph gives it.

    Raises:
        OSError: a file cannot be read.
        UnsupportedModelError: the description or the weights do not fit together.
    """
    import numpy as np

    spec = read_spec(folder) if spec is None else spec
    weights_file = folder / WEIGHTS_FILE
    stored = stored_tensors(weights_file)
    raw = np.asarray(np.memmap(weights_file, dtype=np.uint8, mode="r"))
    out = {}
    for weight in spec:
        tensor = stored.get(weight.source)
        if tensor is None or tensor.offset + tensor.length > raw.size:
            raise UnsupportedModelError(f"{weights_file} holds no tensor {weight.source!r}")
        if len(tensor.shape) != 2:
            raise UnsupportedModelError(f"{weights_file}: {weight.source} is not a matrix")
        half = raw[tensor.offset : tensor.offset + tensor.length].view(np.float16)
        matrix = half.reshape(tensor.shape)
        if weight.transpose:
            # Elementwise, so quantised as stored and transposed as bytes: the same values
            # as quantising the transposed floats, a quarter of the copying.
            axis = None if weight.axis is None else 1 - weight.axis
            out[weight.name] = np.ascontiguousarray(quantise(matrix, weight, axis).T)
        else:
            out[weight.name] = quantise(matrix, weight, weight.axis)
    return out


_BLOCK = 1 << 16
"""Values converted at a time: a block stays in the CPU's cache through every step."""


def quantise(
    matrix: npt.NDArray[np.float16], weight: QuantisedWeight, axis: int | None
) -> npt.NDArray[Any]:
    """``matrix`` as float32 quantised to ``weight.dtype`` per channel along ``axis`` (0
    or 1; ``None``: one scale), as onnxruntime's quantiser does (``compute_scale_zp`` and
    ``quantize_nparray`` of ``onnxruntime.quantization.quant_utils``), vectorised over
    the channels: range widened to include 0 (and made symmetric where asked), scale
    computed in float64 and kept as float32, values divided, rounded half to even,
    shifted by the zero point and clipped to the type's full range.

    Done a block of rows at a time, through one small float32 buffer: the word
    embeddings' 47 MB of float32 never exist at once."""
    import numpy as np

    rows, cols = matrix.shape
    step = max(1, _BLOCK // cols)
    rmin, rmax = _extremes(matrix, axis, step)
    scale, zero = _scale_and_zero(rmin, rmax, weight)
    shift = zero.astype(np.float32) if zero.any() else None
    low, high = _FULL_RANGE[weight.dtype]
    out = np.empty((rows, cols), dtype=weight.dtype)
    buffer = np.empty((min(step, rows), cols), dtype=np.float32)
    for start in range(0, rows, step):
        block = buffer[: min(step, rows - start)]
        np.copyto(block, matrix[start : start + step])
        part = slice(start, start + step) if axis == 0 else slice(None)
        np.divide(block, scale[part], out=block)
        np.rint(block, out=block)  # what ``round`` does: half to even
        if shift is not None:
            block += shift[part]
        np.clip(block, low, high, out=block)
        np.copyto(out[start : start + step], block, casting="unsafe")
    return out


def _extremes(
    matrix: npt.NDArray[np.float16], axis: int | None, step: int
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The least and greatest values of ``matrix`` per channel along ``axis`` (shaped to
    broadcast against it; ``None``: of the whole matrix), as float32.

    Read from the float16 bit patterns, a block of rows at a time: flipping the magnitude
    bits of the negative ones orders them as int16 (numpy reduces float16 slowly, and
    casting everything to float32 twice would cost twice); the extremes alone are cast.
    """
    import numpy as np

    def ordered(bits: npt.NDArray[np.int16]) -> npt.NDArray[np.int16]:
        # Sign and magnitude to an order-preserving int16; its own inverse.
        flipped: npt.NDArray[np.int16] = bits ^ ((bits >> 15) & np.int16(0x7FFF))
        return flipped

    reduce_over = None if axis is None else 1 - axis
    lows, highs = [], []
    for start in range(0, matrix.shape[0], step):
        keys = ordered(matrix[start : start + step].view(np.int16))
        lows.append(keys.min(axis=reduce_over, keepdims=True))
        highs.append(keys.max(axis=reduce_over, keepdims=True))
    # Per row (axis 0) each block gave its own rows' extremes; otherwise they meet.
    low, high = np.concatenate(lows), np.concatenate(highs)
    if axis != 0:
        low, high = low.min(axis=0, keepdims=True), high.max(axis=0, keepdims=True)

    def as_float(keys: npt.NDArray[np.int16]) -> npt.NDArray[np.float32]:
        values: npt.NDArray[np.float32] = ordered(keys).view(np.float16).astype(np.float32)
        return values

    return as_float(low), as_float(high)


def _scale_and_zero(
    rmin: npt.NDArray[np.float32], rmax: npt.NDArray[np.float32], weight: QuantisedWeight
) -> tuple[npt.NDArray[np.float32], npt.NDArray[Any]]:
    import numpy as np

    qmin, qmax = _RANGES[(weight.dtype, weight.symmetric)]
    rmin = np.minimum(rmin, np.float32(0))
    rmax = np.maximum(rmax, np.float32(0))
    if weight.symmetric:
        absmax = np.maximum(np.abs(rmin), np.abs(rmax))
        rmin, rmax = -absmax, absmax
    scale = (rmax.astype(np.float64) - rmin.astype(np.float64)) / (float(qmax) - float(qmin))
    usable = scale >= np.finfo(np.float32).tiny
    safe = np.where(usable, scale, 1.0)
    if weight.symmetric:
        zero = np.full(scale.shape, np.round((qmin + qmax) / 2.0))
    else:
        zero = np.round(qmin - rmin / safe)
    return (
        np.where(usable, scale, 1.0).astype(np.float32),
        np.where(usable, zero, 0).astype(weight.dtype),
    )
