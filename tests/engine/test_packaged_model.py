"""The model memory-tui ships (float16 weights and the ONNX graphs built from them without
torch): the reference's weights, and sentence-transformers' vectors."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.embedding.base import model_path
from engine.embedding.onnx_embedder import OnnxEmbedder
from engine.embedding.onnx_graph import UnsupportedModelError, read_config
from engine.embedding.reference import SentenceTransformerEmbedder, reference_model_path

REPO = Path(__file__).resolve().parents[2]
EVAL = REPO.parent / "shared" / "eval"
EVAL_TEXTS = 200
"""Texts the suite compares (a seeded fifth of the 1,000 that ``python -m bench.model_parity``
measures, bench/RESULTS.md: the suite's time stays near its budget)."""
EVAL_SEED = 20261129


def test_shipped_weights_are_the_references_rounded_to_float16() -> None:
    from safetensors.numpy import load_file

    shipped = load_file(str(model_path() / "model.safetensors"))
    reference = load_file(str(reference_model_path() / "model.safetensors"))
    used = {k for k, v in reference.items() if v.dtype == np.float32}
    assert set(shipped) == used  # every float tensor, nothing else
    for key in used:
        assert shipped[key].dtype == np.float16
        np.testing.assert_array_equal(shipped[key], reference[key].astype(np.float16))
    for name in ("tokenizer.json", "config.json", "1_Pooling/config.json"):
        assert (model_path() / name).read_bytes() == (reference_model_path() / name).read_bytes()


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"model_type": "roberta"}, "model_type 'roberta'"),
        ({"hidden_act": "relu"}, "hidden_act 'relu'"),
        ({"position_embedding_type": "relative_key"}, "position_embedding_type"),
        ({"num_attention_heads": 7}, "not a multiple"),
    ],
)
def test_a_model_of_another_kind_is_refused_by_name(
    tmp_path: Path, change: dict[str, object], named: str
) -> None:
    config = json.loads((model_path() / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps(config | change))
    with pytest.raises(UnsupportedModelError, match=named):
        read_config(tmp_path)


def test_cls_pooling_is_refused(tmp_path: Path) -> None:
    shutil.copy(model_path() / "config.json", tmp_path / "config.json")
    (tmp_path / "1_Pooling").mkdir()
    (tmp_path / "1_Pooling" / "config.json").write_text(
        json.dumps({"pooling_mode_cls_token": True, "pooling_mode_mean_tokens": False})
    )
    with pytest.raises(UnsupportedModelError, match="pooling"):
        read_config(tmp_path)


@pytest.mark.slow
def test_the_model_runs_where_torch_and_onnx_cannot_be_imported(tmp_path: Path) -> None:
    # As in an install without the extras: torch, transformers, sentence-transformers,
    # onnx and safetensors unimportable; both shipped graphs run, no model file is made.
    code = (
        "import sys\n"
        "for name in ('torch', 'transformers', 'sentence_transformers', 'onnx',"
        " 'safetensors'):\n"
        "    sys.modules[name] = None\n"
        "from engine.embedding.default import default_embedder\n"
        "e = default_embedder()\n"
        "q = e.embed_query('lean start'); d = e.embed_documents(['a note', 'another'])\n"
        "assert q.shape == (384,) and d.shape == (2, 384)\n"
        "print(sorted(e._sessions))\n"
    )
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ) | {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, text=True, timeout=300, cwd=REPO, env=env,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['fp32', 'int8']"
    assert not (home / ".cache" / "memory-tui").exists()  # no export made, as there once was


def _eval_texts() -> list[str]:
    """A seeded sample of :data:`EVAL_TEXTS` texts: SciFact abstracts (title and text),
    three in ten, and LoCoMo dialogue turns, short and long."""
    scifact = EVAL / "beir" / "scifact" / "corpus.jsonl"
    if not scifact.is_file():
        pytest.fail(f"evaluation data missing: {scifact} (see {EVAL}/README.md)")
    texts = []
    with scifact.open(encoding="utf-8") as fh:
        for line in fh:
            doc = json.loads(line)
            texts.append(f"{doc['title']}\n{doc['text']}")
    turns = []
    for corpus in sorted((EVAL / "locomo-dev").glob("conv-*/corpus.jsonl")):
        with corpus.open(encoding="utf-8") as fh:
            turns.extend(json.loads(line)["text"] for line in fh)
    rng = random.Random(EVAL_SEED)
    return rng.sample(texts, EVAL_TEXTS * 3 // 10) + rng.sample(turns, EVAL_TEXTS * 7 // 10)


@pytest.mark.slow
def test_vectors_match_sentence_transformers_on_eval_texts() -> None:
    texts = _eval_texts()
    assert len(texts) == EVAL_TEXTS
    reference = SentenceTransformerEmbedder().embed_documents(texts)

    fp32 = OnnxEmbedder("fp32").embed_documents(texts)
    cosines = (fp32 * reference).sum(axis=1)
    assert cosines.min() >= 0.9999, cosines.min()

    # Documents are stored as int8 vectors: as close as before the graph was built
    # without torch (bench/RESULTS.md: mean 0.993, min 0.978 to fp32 on Argo CD text).
    int8 = OnnxEmbedder("int8").embed_documents(texts)
    cosines = (int8 * reference).sum(axis=1)
    assert cosines.mean() > 0.99 and cosines.min() > 0.97, (cosines.mean(), cosines.min())
