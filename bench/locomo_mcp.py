"""LoCoMo dev through MCP, as an agent would fill and search a memory —
``python -m bench.locomo_mcp [--conv conv-0 ...]``.

For each conversation of ``../shared/eval/locomo-dev``: a fresh project folder, ``memory-tui
serve-mcp`` over stdio with the SDK client, every turn stored with ``memory_add`` (one call
each, content only, the server's defaults), then every question searched with
``memory_search`` (``limit`` 10) in each mode. R@5, R@10 and nDCG@10 as in
:mod:`bench.locomo` (which fills the memory with ``add_many`` in-process); the two should
agree, and this is the path issue 23's figures were first taken on. Turns the server
refuses (a secret by its rules) are counted and left out, as an agent would see them fail.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.types import TextContent

from bench.fusion_lab import LOCOMO, _qrels, _read_jsonl
from bench.metrics import ndcg_at_k, recall_at_k

MODES = ("keyword", "vector", "hybrid")
MEMORY_TUI = str(Path(sys.executable).parent / "memory-tui")


def _payload(result: Any) -> dict[str, Any]:
    block = result.content[0]
    assert isinstance(block, TextContent), block
    data: dict[str, Any] = json.loads(block.text)
    return data


async def run_conversation(folder: Path, root: Path) -> tuple[dict[str, list[float]], int]:
    """Per-mode metric lists for one conversation, and how many turns were refused."""
    params = StdioServerParameters(
        command=MEMORY_TUI, args=["serve-mcp", "--project", str(root)], env=dict(os.environ)
    )
    figures: dict[str, list[float]] = defaultdict(list)
    refused = 0
    doc_of: dict[str, str] = {}
    async with Client(params, mode="legacy", cache=None) as client:
        for row in _read_jsonl(folder / "corpus.jsonl"):
            result = await client.call_tool("memory_add", {"content": str(row["text"])})
            data = _payload(result)
            if result.is_error or not data.get("id"):
                refused += 1
                continue
            doc_of.setdefault(str(data["id"]), str(row["_id"]))
        qrels = _qrels(folder / "qrels" / "test.tsv")
        for row in _read_jsonl(folder / "queries.jsonl"):
            relevant = qrels.get(str(row["_id"]))
            if not relevant:
                continue
            for mode in MODES:
                args = {"query": str(row["text"]), "mode": mode, "limit": 10}
                found = _payload(await client.call_tool("memory_search", args))["results"]
                ranked = [doc_of.get(str(r["id"]), "") for r in found]
                figures[f"{mode} R@5"].append(recall_at_k(ranked, relevant, 5))
                figures[f"{mode} R@10"].append(recall_at_k(ranked, relevant, 10))
                figures[f"{mode} nDCG@10"].append(ndcg_at_k(ranked, relevant, 10))
    return figures, refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conv", action="append", help="conversation folder (default: all)")
    args = parser.parse_args()
    names = args.conv or sorted(p.name for p in LOCOMO.iterdir() if p.is_dir())
    totals: dict[str, list[float]] = defaultdict(list)
    for name in names:
        with tempfile.TemporaryDirectory(prefix=f"locomo-mcp-{name}-") as tmp:
            figures, refused = anyio.run(run_conversation, LOCOMO / name, Path(tmp))
        for key, values in figures.items():
            totals[key] += values
        r5 = statistics.fmean(figures["hybrid R@5"])
        print(f"{name}: hybrid R@5 {r5:.4f} ({refused} turns refused)", flush=True)
    print(f"{'mode':10}{'R@5':>10}{'R@10':>10}{'nDCG@10':>10}")
    for mode in MODES:
        cells = "".join(
            f"{statistics.fmean(totals[f'{mode} {m}']):10.4f}" for m in ("R@5", "R@10", "nDCG@10")
        )
        print(f"{mode:10}{cells}  ({len(totals[f'{mode} R@5'])} questions)")


if __name__ == "__main__":
    main()
