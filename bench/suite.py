"""The speed suite: one command, one table, appended to ``bench/RESULTS.md``.

    python -m bench [--skip cold,warm,index,rss,quality] [--sizes 10000,100000]

Sections (each can be skipped):

- **cold** — a fresh ``memory-tui search`` process per mode on the SciFact memory (5,183
  entries), median of 5 after one untimed run (file cache warm, as it is in daily use).
- **warm** — per-query latency per mode in a long-lived memory (what the TUI and the MCP
  server run) at each size of ``--sizes`` (synthetic memories, :mod:`bench.synthetic`),
  median and p95 over 100 SciFact test queries, and vector recall@10 against exact search.
- **index** — embedding throughput on the same 600 Argo CD chunks and 600 SciFact
  abstracts for sentence-transformers fp32 (the reference), onnxruntime fp32 with and
  without batching by length, and onnxruntime int8; and an end-to-end cold ``index`` of
  the 455-file markdown corpus with the default embedder.
- **rss** — peak resident memory of a hybrid ``search``, of ``serve-mcp`` (and its idle
  RSS after a search), and of the TUI during a headless session of searches.
- **quality** — SciFact nDCG@10 per mode (test split), as ``python -m bench.scifact``.

Figures depend on what else the machine runs: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.metrics import percentile
from engine.services.parts import parts_of

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
MEMORY_TUI = str(Path(sys.executable).parent / "memory-tui")
CORPUS = REPO.parent / "shared" / "eval" / "markdown" / "argo-cd-docs"
QUERY = "vitamin d deficiency and bone density"
Row = tuple[str, str, str]
"""(what, figure, target or note)."""


def peak_rss_mib(args: Sequence[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS MiB) of one child.

    The peak is the child's own high-water mark (``VmHWM``), read every 10 ms until it
    exits: the kernel's ``ru_maxrss`` of a child also counts the parent's memory copied
    by the fork before the exec (it reported 1.8 GiB for a 260 MiB app here).
    """
    started = time.perf_counter()
    proc = subprocess.Popen(list(args), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    status_file = Path(f"/proc/{proc.pid}/status")
    while proc.poll() is None:
        try:
            for line in status_file.read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]))
        except (OSError, ValueError):
            pass  # exiting
        time.sleep(0.01)
    elapsed = time.perf_counter() - started
    if proc.returncode:
        raise SystemExit(f"{' '.join(args)} failed: {proc.stderr.read()[-2000:]!r}")  # type: ignore[union-attr]
    return elapsed, peak / 1024


def cold(rows: list[Row]) -> None:
    """Cold ``memory-tui search`` per mode, median of 5 fresh processes."""
    from bench.scifact import CACHE

    targets = {"hybrid": "≤ 1.5 s", "keyword": "≤ 0.4 s", "vector": ""}
    for mode in ("keyword", "vector", "hybrid"):
        args = [MEMORY_TUI, "search", QUERY, "--mode", mode, "--project", str(CACHE)]
        peak_rss_mib(args)  # untimed: file cache, first ONNX session on this machine
        runs = [peak_rss_mib(args) for _ in range(5)]
        wall = statistics.median(r[0] for r in runs)
        what = f"cold `search --mode {mode}` (5,183 entries)"
        rows.append((what, f"{wall:.2f} s", targets[mode]))
        if mode == "hybrid":
            rss = statistics.median(r[1] for r in runs)
            rows.append(("peak RSS of a hybrid `search`", f"{rss:.0f} MiB", ""))


def warm(rows: list[Row], sizes: Sequence[int]) -> None:
    """Warm per-query latency in a long-lived memory, per mode and size."""
    import numpy as np

    from bench import synthetic
    from bench.scifact import load_queries
    from engine.services.memory import Memory

    queries = list(load_queries("test")[0].values())[:100]
    targets = {10_000: "≤ 15 ms", 100_000: "≤ 50 ms"}
    for size in sizes:
        root = synthetic.build(size)
        with Memory.open(root) as memory:
            memory.search("warm up the model and the store", mode="hybrid")
            for mode in ("keyword", "vector", "hybrid"):
                times = []
                for query in queries:
                    started = time.perf_counter()
                    memory.search(query, mode=mode, limit=10)
                    times.append((time.perf_counter() - started) * 1000)
                p50, p95 = statistics.median(times), percentile(times, 95)
                rows.append(
                    (
                        f"warm {mode} query, {size:,} entries",
                        f"p50 {p50:.1f} ms, p95 {p95:.1f} ms",
                        targets.get(size, "") if mode == "hybrid" else "",
                    )
                )
            # Recall of the vector list against brute force over the same vectors.
            ids, _, matrix = parts_of(memory).store().all_vectors()
            hits_total = 0
            for query in queries[:50]:
                qvec = parts_of(memory).embedder.embed_query(query)
                exact = {ids[i] for i in np.argsort(-(matrix @ qvec))[:10]}
                got = {e.id for e, _ in parts_of(memory).vectors.search(qvec, 10)}
                hits_total += len(exact & got)
            recall = f"{hits_total / 500:.3f}"
            rows.append((f"vector recall@10 vs exact, {size:,}", recall, "≥ 0.95"))


def _samples() -> dict[str, list[str]]:
    from bench.synthetic import scifact_texts
    from engine.markdown.chunking import chunk_markdown

    chunks: list[str] = []
    for path in sorted(CORPUS.rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        chunks += [c.content for c in chunk_markdown(text)]
    rng = random.Random(7)
    return {
        "Argo CD chunks": rng.sample(chunks, 600),
        "SciFact abstracts": rng.sample(scifact_texts(), 600),
    }


def index(rows: list[Row]) -> None:
    """Embedding throughput per implementation, then a cold index of the corpus."""
    from engine.embedding.onnx_embedder import OnnxEmbedder
    from engine.embedding.reference import SentenceTransformerEmbedder

    class Unsorted(OnnxEmbedder):
        """onnxruntime fp32 in arrival order (no batching by length)."""

        def embed_documents(self, texts: Sequence[str]) -> Any:
            import numpy as np

            session = self._session(self.document_variant)
            parts = [self._run(session, texts[i : i + 32]) for i in range(0, len(texts), 32)]
            return np.vstack(parts)

    variants: list[tuple[str, Callable[[], Any]]] = [
        ("sentence-transformers fp32", SentenceTransformerEmbedder),
        ("onnxruntime fp32, batched by length", OnnxEmbedder),
        ("onnxruntime fp32, arrival order", Unsorted),
        ("onnxruntime int8, batched by length", lambda: OnnxEmbedder("int8")),
    ]
    for corpus, texts in _samples().items():
        reference = None
        base = 0.0
        for name, make in variants:
            embedder = make()
            embedder.embed_documents(texts[:8])  # load outside the timing
            started = time.perf_counter()
            vectors = embedder.embed_documents(texts)
            rate = len(texts) / (time.perf_counter() - started)
            if reference is None:
                reference, base = vectors, rate
            cosine = float((vectors * reference).sum(axis=1).min())
            rows.append(
                (
                    f"embed 600 {corpus}: {name}",
                    f"{rate:.1f} /s ({rate / base:.2f}×)",
                    f"min cosine to reference {cosine:.5f}",
                )
            )
    _index_corpus(rows)


def _index_corpus(rows: list[Row]) -> None:
    from engine.services.indexing import Indexer
    from engine.services.memory import Memory

    root = BENCH / ".cache" / "suite-index"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(CORPUS, root / ".claude" / "knowledge")
    with Memory.open(root) as memory:
        parts_of(memory).base_embedder.embed_query("load the model outside the timing")
        report = Indexer(memory).run()
        rows.append(
            (
                "cold `index` of the 455-file corpus (default embedder)",
                f"{memory.count()} chunks in {report.seconds:.0f} s = "
                f"{memory.count() / report.seconds:.1f} chunks/s",
                f"{report.embedded} embedded, {len(report.errors)} errors",
            )
        )
    shutil.rmtree(root, ignore_errors=True)


def rss(rows: list[Row]) -> None:
    """Resident memory of serve-mcp (idle after a search) and of the TUI."""
    import anyio

    from bench import mcp_latency
    from bench.scifact import load_queries

    mcp_latency.build_project(1000)
    queries = list(load_queries("test")[0].values())[:8]
    result = anyio.run(mcp_latency.measure, queries)
    rows.append(("`serve-mcp` spawn → tools/list", f"{result['tools_list_s']:.2f} s", "≤ 1.5 s"))
    warm_ms = f"{result['warm_hybrid_median_ms']:.1f} ms"
    rows.append(("`serve-mcp` warm hybrid search (median of 5)", warm_ms, "≤ 30 ms"))
    idle = f"{result['idle_rss_mib']:.0f} MiB"
    rows.append(("`serve-mcp` idle RSS after a search", idle, "≤ 300 MB"))
    _, peak = peak_rss_mib([sys.executable, "-m", "bench.tui_latency", "--entries", "10000"])
    rows.append(("peak RSS of the TUI (headless session, 10,000 entries)", f"{peak:.0f} MiB", ""))


def quality(rows: list[Row]) -> None:
    """SciFact nDCG@10 per mode (test split)."""
    from bench.scifact import evaluate, open_memory
    from engine.core.models import SearchMode

    memory, id_map, _ = open_memory(fresh=False)
    for mode in (SearchMode.KEYWORD, SearchMode.VECTOR, SearchMode.HYBRID):
        result = evaluate(memory, id_map, "test", mode)
        rows.append((f"SciFact nDCG@10, {mode.value}", f"{result['ndcg10']:.4f}", ""))
    memory.close()


def report(rows: list[Row], started: datetime, load: float) -> str:
    """The markdown section appended to RESULTS.md."""
    lines = [
        f"## Speed suite — `python -m bench` ({started:%Y-%m-%d %H:%M} UTC)",
        "",
        f"Load average {load:.2f} on {os.cpu_count()} CPUs at the start.",
        "",
        "| measurement | figure | target / note |",
        "|---|---|---|",
        *(f"| {a} | {b} | {c} |" for a, b, c in rows),
        "",
    ]
    return "\n".join(lines)


SECTIONS = ("cold", "warm", "index", "rss", "quality")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip", default="", help=f"comma-separated, of {', '.join(SECTIONS)}")
    parser.add_argument("--sizes", default="10000,100000", help="warm-latency memory sizes")
    parser.add_argument("--no-record", action="store_true", help="do not append to RESULTS.md")
    args = parser.parse_args()
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    if unknown := skip - set(SECTIONS):
        parser.error(f"unknown section(s): {', '.join(sorted(unknown))}")
    from bench.scifact import open_memory

    open_memory(fresh=False)[0].close()  # builds the SciFact memory once (minutes)
    started, load = datetime.now(UTC), os.getloadavg()[0]
    rows: list[Row] = []
    sizes = [int(s) for s in args.sizes.split(",") if s]
    steps: dict[str, Callable[[], None]] = {
        "cold": lambda: cold(rows),
        "warm": lambda: warm(rows, sizes),
        "index": lambda: index(rows),
        "rss": lambda: rss(rows),
        "quality": lambda: quality(rows),
    }
    for name in SECTIONS:
        if name not in skip:
            print(f"… {name}", file=sys.stderr, flush=True)
            steps[name]()
    text = report(rows, started, load)
    print(text)
    if not args.no_record:
        with (BENCH / "RESULTS.md").open("a", encoding="utf-8") as fh:
            fh.write("\n" + text)


if __name__ == "__main__":
    main()
