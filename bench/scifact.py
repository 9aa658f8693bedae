"""SciFact retrieval quality per search mode (BEIR test split), with speed figures.

    python -m bench.scifact [--split test] [--calibrate]

Indexes ``../shared/eval/beir/scifact`` (one entry per abstract: title + text) into a
memory under ``bench/.cache/scifact`` (re-runs reuse it and its embedding cache),
then prints nDCG@10 and Recall@100 for vector, keyword and hybrid search next to the
published references, plus indexing throughput and per-mode query latency.
``--calibrate`` sweeps the relevance gate (``min_score``) on the *train* split.
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from dataclasses import replace
from pathlib import Path

from bench.metrics import median, ndcg_at_k, percentile, recall_at_k
from engine.core.config import Config
from engine.core.models import SearchMode
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "eval" / "beir" / "scifact"
CACHE = Path(__file__).resolve().parent / ".cache" / "scifact"
PUBLISHED = {
    "keyword": "BM25 flat 0.679 / multifield 0.665 (R@100 0.925 / 0.908)",
    "vector": "all-MiniLM-L6-v2 0.645 (R@100 0.925)",
    "hybrid": "RRF BM25+BGE-base 0.742 (R@100 0.977)",
}
FLOOR = {"keyword": 0.682, "vector": 0.645, "hybrid": 0.715}


def load_corpus() -> list[tuple[str, str]]:
    """(doc id, title + text) for every abstract."""
    docs = []
    with (DATA / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            docs.append((str(row["_id"]), f"{row['title']}\n\n{row['text']}".strip()))
    return docs


def load_queries(split: str) -> tuple[dict[str, str], dict[str, dict[str, int]]]:
    """Queries that have judgements in ``split``, and the judgements."""
    qrels: dict[str, dict[str, int]] = {}
    with (DATA / "qrels" / f"{split}.tsv").open(encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            qid, doc, grade = line.rstrip("\n").split("\t")
            qrels.setdefault(qid, {})[doc] = int(grade)
    queries = {}
    with (DATA / "queries.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if str(row["_id"]) in qrels:
                queries[str(row["_id"])] = row["text"]
    return queries, qrels


def open_memory(fresh: bool) -> tuple[Memory, dict[str, str], float | None]:
    """The indexed memory, a map entry id → doc id, and indexing seconds if it indexed now."""
    if fresh and CACHE.exists():
        cache = CACHE / ".claude" / "memory" / "embeddings.sqlite"
        keep = cache.read_bytes() if cache.exists() else None
        shutil.rmtree(CACHE)
        if keep is not None:
            cache.parent.mkdir(parents=True)
            cache.write_bytes(keep)
    CACHE.mkdir(parents=True, exist_ok=True)
    # Abstracts are data, not secrets: a scientific text must never be rejected.
    memory = Memory.open(CACHE, config=replace(Config(), secret_policy="redact"))
    id_map_path = CACHE / "doc_ids.json"
    seconds = None
    if memory.count() == 0:
        docs = load_corpus()
        start = time.perf_counter()
        id_map: dict[str, str] = {}
        for i in range(0, len(docs), 512):
            batch = docs[i : i + 512]
            items = [NewEntry(text[:10_000], section_title="") for _, text in batch]
            for (doc_id, _), result in zip(batch, memory.add_many(items), strict=True):
                id_map[result.entry.id] = doc_id
            print(f"  indexed {min(i + 512, len(docs))}/{len(docs)}", flush=True)
        seconds = time.perf_counter() - start
        id_map_path.write_text(json.dumps(id_map))
    return memory, json.loads(id_map_path.read_text()), seconds


def evaluate(
    memory: Memory, id_map: dict[str, str], split: str, mode: SearchMode
) -> dict[str, float]:
    """nDCG@10 (limit 10), Recall@100 (limit 100) and latency for one mode."""
    queries, qrels = load_queries(split)
    ndcgs, recalls, times = [], [], []
    for qid, text in queries.items():
        start = time.perf_counter()
        top10 = memory.search(text, mode=mode, limit=10).results
        times.append(time.perf_counter() - start)
        ndcgs.append(ndcg_at_k([id_map[r.entry.id] for r in top10], qrels[qid], 10))
        top100 = memory.search(text, mode=mode, limit=100).results
        recalls.append(recall_at_k([id_map[r.entry.id] for r in top100], qrels[qid], 100))
    return {
        "ndcg10": sum(ndcgs) / len(ndcgs),
        "recall100": sum(recalls) / len(recalls),
        "p50_ms": median(times) * 1000,
        "p95_ms": percentile(times, 95) * 1000,
        "queries": len(queries),
    }


def calibrate(memory: Memory, id_map: dict[str, str]) -> None:
    """Sweep the relevance gate on the train split (never on test).

    Each query is searched once with the gate open (40 fused candidates, each with its
    cosine similarity); every threshold is then applied to that list, which is exactly
    what the gated search returns.
    """
    from bench.search_oracles import covers_all_terms

    queries, qrels = load_queries("train")
    parts_of(memory).searcher.min_score = -1.0
    runs = []
    for qid, text in queries.items():
        results = memory.search(text, mode=SearchMode.HYBRID, limit=40).results
        runs.append((qid, text, results))
    unrelated = [
        "completely unrelated quantum physics",
        "recipe for chocolate cake",
        "who won the football world cup",
    ]
    print(f"\nGate calibration, hybrid nDCG@10 on the train split ({len(runs)} queries):")
    for gate in (-1.0, 0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35):
        scores = []
        for qid, text, results in runs:
            kept = [
                id_map[r.entry.id]
                for r in results
                if (r.explanation.vector_similarity or -1.0) >= gate
                or covers_all_terms(text, r.entry)
            ]
            scores.append(ndcg_at_k(kept[:10], qrels[qid], 10))
        print(f"  min_score {gate:+.2f}: nDCG@10 {sum(scores) / len(scores):.4f}")
    print("\nBest cosine similarity of off-topic queries (SciFact is biomedical):")
    for text in unrelated:
        top = memory.search(text, mode=SearchMode.VECTOR, limit=1).results
        print(f"  {text!r}: {top[0].explanation.vector_similarity:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="test", choices=["test", "train"])
    parser.add_argument("--fresh", action="store_true", help="re-index (embedding cache kept)")
    parser.add_argument("--calibrate", action="store_true", help="sweep min_score on train")
    parser.add_argument("--no-gate", action="store_true", help="also report with the gate off")
    args = parser.parse_args()

    memory, id_map, seconds = open_memory(args.fresh)
    if seconds is not None:
        n = memory.count()
        print(f"indexed {n} abstracts in {seconds:.1f} s ({n / seconds:.1f} entries/s)")
    if args.calibrate:
        calibrate(memory, id_map)
        return
    gate = memory.config.min_score
    print(f"\nSciFact {args.split} split, relevance gate min_score = {gate}")
    header = f"{'mode':<8} {'nDCG@10':>8} {'R@100':>7} {'p50 ms':>7} {'p95 ms':>7}  reference"
    print(header)
    print("-" * len(header))
    for mode in (SearchMode.KEYWORD, SearchMode.VECTOR, SearchMode.HYBRID):
        row = evaluate(memory, id_map, args.split, mode)
        print(
            f"{mode.value:<8} {row['ndcg10']:>8.4f} {row['recall100']:>7.4f} "
            f"{row['p50_ms']:>7.1f} {row['p95_ms']:>7.1f}  {PUBLISHED[mode.value]}"
        )
    if args.no_gate:
        parts_of(memory).searcher.min_score = -1.0
        for mode in (SearchMode.VECTOR, SearchMode.HYBRID):
            row = evaluate(memory, id_map, args.split, mode)
            print(
                f"{mode.value + '*':<8} {row['ndcg10']:>8.4f} {row['recall100']:>7.4f}  (gate off)"
            )
    memory.close()


if __name__ == "__main__":
    main()
