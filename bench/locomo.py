"""LoCoMo dev retrieval quality per mode — ``python -m bench.locomo``.

Each of the five conversations of ``../shared/eval/locomo-dev`` in its own memory (built
once under bench/.cache/locomo/, through the product's add path, the real model); every
question searched with the product's defaults (``memory.search(text, mode=…, limit=10)``,
gate included); R@5, R@10 and nDCG@10 with binary gains, each question counting once, as
the dataset's README defines them; and R@5 per LoCoMo category.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from dataclasses import replace

from bench.fusion_lab import CACHE, LOCOMO, _qrels, _read_jsonl
from bench.metrics import ndcg_at_k, recall_at_k

MODES = ("keyword", "vector", "hybrid")
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def main() -> None:
    from engine.core.config import Config
    from engine.services.entries import NewEntry
    from engine.services.memory import Memory

    figures: dict[str, dict[str, list[float]]] = {m: defaultdict(list) for m in MODES}
    for conv in sorted(p.name for p in LOCOMO.iterdir() if p.is_dir()):
        folder, root = LOCOMO / conv, CACHE / "locomo" / conv
        root.mkdir(parents=True, exist_ok=True)
        with Memory.open(root, config=replace(Config(), secret_policy="redact")) as memory:
            ids_path = root / "doc_ids.json"
            if memory.count() == 0:
                docs = [
                    (str(r["_id"]), str(r["text"])) for r in _read_jsonl(folder / "corpus.jsonl")
                ]
                results = memory.add_many([NewEntry(text) for _, text in docs])
                ids_path.write_text(
                    json.dumps({r.entry.id: d for (d, _), r in zip(docs, results, strict=True)})
                )
            ids = json.loads(ids_path.read_text())
            qrels = _qrels(folder / "qrels" / "test.tsv")
            for row in _read_jsonl(folder / "queries.jsonl"):
                qid = str(row["_id"])
                if qid not in qrels:
                    continue
                category = CATEGORIES.get(int(row.get("metadata", {}).get("category", 0)), "other")  # type: ignore[union-attr]
                for mode in MODES:
                    found = memory.search(str(row["text"]), mode=mode, limit=10).results
                    ranked = [ids[r.entry.id] for r in found]
                    slot = figures[mode]
                    slot["R@5"].append(recall_at_k(ranked, qrels[qid], 5))
                    slot["R@10"].append(recall_at_k(ranked, qrels[qid], 10))
                    slot["nDCG@10"].append(ndcg_at_k(ranked, qrels[qid], 10))
                    slot[f"R@5 {category}"].append(recall_at_k(ranked, qrels[qid], 5))
    keys = ["R@5", "R@10", "nDCG@10"] + [f"R@5 {c}" for c in CATEGORIES.values()]
    print(f"{'mode':10}" + "".join(f"{k:>22}" for k in keys))
    for mode in MODES:
        cells = "".join(f"{statistics.fmean(figures[mode][k]):22.4f}" for k in keys)
        print(f"{mode:10}{cells}  ({len(figures[mode]['R@5'])} questions)")


if __name__ == "__main__":
    main()
