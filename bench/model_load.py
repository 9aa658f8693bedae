"""How long a fresh process takes to load each shipped ONNX graph of the model.

Each run is a new Python process (nothing cached in memory; the files are in the page
cache after the first run) that imports the embedder, loads one variant's session and
embeds one document; the median of the runs is printed per variant, with the load average.

    python -m bench.model_load [--runs 7] [--variants int8,fp32] [--root CHECKOUT ...]

With several ``--root`` (checkouts of two commits), the runs alternate between them, so
a change in the machine's load falls on both alike.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = """
import json, time
from engine.embedding.onnx_embedder import OnnxEmbedder
embedder = OnnxEmbedder({variant!r}, threads=2)
start = time.perf_counter()
embedder._session({variant!r})
loaded = time.perf_counter() - start
embedder.embed_documents(["a first note to embed"])
print(json.dumps({{"load": loaded, "first": time.perf_counter() - start}}))
"""


def measure(variant: str, runs: int, roots: list[Path]) -> dict[Path, dict[str, float]]:
    """Per checkout, the median seconds to load ``variant``'s session, and to embed a
    first document."""
    rows: dict[Path, list[dict[str, float]]] = {root: [] for root in roots}
    for _ in range(runs):
        for root in roots:
            out = subprocess.run(
                [sys.executable, "-c", _CHILD.format(variant=variant)],
                cwd=root,
                env={**os.environ, "PYTHONPATH": str(root)},
                capture_output=True,
                text=True,
                check=True,
            )
            rows[root].append(json.loads(out.stdout.strip().splitlines()[-1]))
    return {
        root: {key: statistics.median(row[key] for row in got) for key in ("load", "first")}
        for root, got in rows.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--variants", default="int8,fp32")
    parser.add_argument("--root", type=Path, action="append", help="a checkout (default: this)")
    args = parser.parse_args()
    roots = [root.resolve() for root in args.root or [ROOT]]
    for variant in args.variants.split(","):
        before = os.getloadavg()[0]
        results = measure(variant, args.runs, roots)
        for root, result in results.items():
            print(
                f"{variant} ({root}): session load {result['load'] * 1000:.0f} ms, with a "
                f"first document {result['first'] * 1000:.0f} ms (median of {args.runs}; "
                f"load average {before:.1f}–{os.getloadavg()[0]:.1f})"
            )


if __name__ == "__main__":
    main()
