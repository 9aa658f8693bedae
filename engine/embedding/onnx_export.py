"""The ONNX form of the packaged all-MiniLM-L6-v2, made once from the installed weights.

The fp32 file is written node by node from the packaged safetensors weights
(:mod:`.onnx_graph`: onnx and safetensors, no torch), with mean pooling and L2
normalisation in the graph, so onnxruntime returns finished sentence vectors; the int8
file is its weights quantised by onnxruntime. Files are cached under
the user's cache directory with the weights' checksum in their names: new weights get a
new export, and an export is never used with weights it was not made from (the weights
are checked against that checksum before an export is made from them).

Writers publish atomically (temporary file, then rename), so concurrent processes that
both find no export at worst both make one; neither ever reads a half-written file.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from engine.embedding.base import WEIGHTS_SHA256, model_path

log = logging.getLogger(__name__)

Variant = Literal["fp32", "int8"]
CACHE_ENV = "MEMORY_TUI_MODEL_CACHE"
"""Overrides the folder that holds the ONNX exports (tests share one per session)."""
WEIGHTS_FILE = "model.safetensors"
FILE_TAGS: dict[str, str] = {"fp32": "graph-fp32", "int8": "graph-int8w"}
"""Names the recipe in the file name: a changed recipe gets a new file, never an old one."""
ExportNotice = Callable[[str], contextlib.AbstractContextManager[None]]
_notices: list[ExportNotice] = []


def on_model_export(notice: ExportNotice | None) -> None:
    """Have ``notice(what)`` wrap every export made from now on (``None``: none again).

    A face shows progress with it: the one-time export takes tens of seconds, and the
    engine itself never draws on a terminal.
    """
    _notices[:] = [] if notice is None else [notice]


def cache_dir() -> Path:
    """Where exports live: ``$MEMORY_TUI_MODEL_CACHE``, else ``$XDG_CACHE_HOME/memory-tui``,
    else ``~/.cache/memory-tui``."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "memory-tui"


class DamagedWeightsError(RuntimeError):
    """The shipped weights are not the file memory-tui was released with."""


def weights_checksum() -> str:
    """SHA-256 of the shipped weights, as released (:data:`WEIGHTS_SHA256`)."""
    return WEIGHTS_SHA256


def check_weights(path: Path) -> None:
    """Refuse weights whose SHA-256 is not :data:`WEIGHTS_SHA256` (a damaged install).

    Raises:
        DamagedWeightsError: the file differs; the message says how to repair it.
    """
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != WEIGHTS_SHA256:
        raise DamagedWeightsError(
            f"{path} is damaged (SHA-256 {digest.hexdigest()[:16]}…, expected "
            f"{WEIGHTS_SHA256[:16]}…): reinstall memory-tui"
        )


def onnx_path(variant: Variant = "fp32") -> Path:
    """Where the export of ``variant`` lives (it may not exist yet)."""
    tag = FILE_TAGS[variant]
    return cache_dir() / f"all-MiniLM-L6-v2-{weights_checksum()[:16]}-{tag}.onnx"


def ensure_onnx(variant: Variant = "fp32") -> Path:
    """The export of ``variant``, made now if missing (fp32 from the weights, int8 by
    dynamic quantisation of fp32)."""
    target = onnx_path(variant)
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    source = ensure_onnx("fp32") if variant != "fp32" else None
    what = f"Preparing the embedding model ({variant}, once per machine)"
    with _notices[0](what) if _notices else contextlib.nullcontext():
        if source is None:
            _publish(target, _export_fp32)
        else:
            _publish(target, lambda out: _quantize_int8(source, out))
    return target


def _publish(target: Path, make: Any) -> None:
    fd, tmp_name = tempfile.mkstemp(prefix=target.name, suffix=".part", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        make(tmp)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    log.info("wrote %s", target)


def _export_fp32(out: Path) -> None:
    from engine.embedding.onnx_graph import write_model

    log.info("building the ONNX model of all-MiniLM-L6-v2 from its weights (once)")
    check_weights(model_path() / WEIGHTS_FILE)
    write_model(model_path(), out)


def _quantize_int8(source: Path, out: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    log.info("quantising the ONNX model to int8 (once)")
    # The quantiser advises "pre-processing" through the root logger, which lands on a
    # user's terminal; that advice concerns models whose shapes it can infer better.
    advice = _DropAdvice()
    logging.getLogger().addFilter(advice)
    # Weights only (per output channel); the attention products of two activations stay
    # fp32. Quantising those too halved the worst-case cosine to fp32 (0.79 vs 0.98) and
    # was no faster (bench/RESULTS.md).
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


class _DropAdvice(logging.Filter):
    """Drops onnxruntime's quantisation advice, lets everything else through."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Please consider to run pre-processing")
