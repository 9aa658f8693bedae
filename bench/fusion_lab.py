"""Fusion experiments on the development data (issue 23): collect once, score offline.

    python -m bench.fusion_lab collect   # keyword and vector top-100 lists, with scores
    python -m bench.fusion_lab tune      # nDCG@10 / R@5 of fusion variants per dataset
    python -m bench.fusion_lab agreement # the vector list's agreement weight (the product's)
    python -m bench.fusion_lab crossval  # the choice, made without each LoCoMo conversation
    python -m bench.fusion_lab phrases   # the keyword list's phrase weight (the product's)

``collect`` runs every query of SciFact (train and test splits, the cached full-corpus
memory of bench/scifact.py) and of LoCoMo dev (each conversation in its own memory under
bench/.cache/locomo/) through the product's keyword and vector retrievers and keeps both
ranked lists with their raw scores (BM25, cosine). ``tune`` then scores fusion methods on
those lists without touching the model: the methods are chosen on SciFact *train* and
LoCoMo dev; SciFact *test* is only reported.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from bench.metrics import ndcg_at_k, recall_at_k
from engine.services.parts import parts_of

CACHE = Path(__file__).parent / ".cache"
LISTS = CACHE / "fusion_lists.json"
LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "eval" / "locomo-dev"
DEPTH = 100

Ranked = list[tuple[str, float]]
"""(document id, raw score), best first."""


def _read_jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _qrels(path: Path) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        qid, doc, grade = line.split("\t")
        out.setdefault(qid, {})[doc] = int(grade)
    return out


def _lists(memory: object, id_map: dict[str, str], text: str) -> tuple[Ranked, Ranked]:
    searcher = parts_of(memory).searcher  # type: ignore[attr-defined]
    kw = [(id_map[h.entry.id], -h.bm25) for h in searcher.keyword.search(text, DEPTH)]
    qvec = parts_of(memory).embedder.embed_query(text)  # type: ignore[attr-defined]
    vec = [(id_map[e.id], float(s)) for e, s in searcher.vectors.search(qvec, DEPTH)]
    return kw, vec


def collect() -> None:
    """Write the keyword and vector lists of every query to :data:`LISTS`."""
    from bench.scifact import load_queries, open_memory
    from engine.core.config import Config
    from engine.services.entries import NewEntry
    from engine.services.memory import Memory

    out: dict[str, object] = {}
    memory, id_map, _ = open_memory(False)
    for split in ("train", "test"):
        queries, qrels = load_queries(split)
        rows = []
        for qid, text in queries.items():
            kw, vec = _lists(memory, id_map, text)
            rows.append({"q": qid, "kw": kw, "vec": vec, "rel": qrels.get(qid, {})})
        out[f"scifact-{split}"] = rows
        print(f"scifact {split}: {len(rows)} queries", flush=True)
    memory.close()
    rows = []
    for conv in sorted(p.name for p in LOCOMO.iterdir() if p.is_dir()):
        folder = LOCOMO / conv
        root = CACHE / "locomo" / conv
        root.mkdir(parents=True, exist_ok=True)
        mem = Memory.open(root, config=replace(Config(), secret_policy="redact"))
        ids_path = root / "doc_ids.json"
        if mem.count() == 0:
            docs = [(str(r["_id"]), str(r["text"])) for r in _read_jsonl(folder / "corpus.jsonl")]
            results = mem.add_many([NewEntry(text) for _, text in docs])
            ids = {r.entry.id: d for (d, _), r in zip(docs, results, strict=True)}
            ids_path.write_text(json.dumps(ids))
        ids = json.loads(ids_path.read_text())
        qrels = _qrels(folder / "qrels" / "test.tsv")
        for r in _read_jsonl(folder / "queries.jsonl"):
            qid = str(r["_id"])
            if qid in qrels:
                kw, vec = _lists(mem, ids, str(r["text"]))
                rows.append({"q": qid, "kw": kw, "vec": vec, "rel": qrels[qid]})
        mem.close()
        print(f"locomo {conv}: {len(rows)} queries so far", flush=True)
    out["locomo-dev"] = rows
    LISTS.write_text(json.dumps(out))


# --- fusion methods ------------------------------------------------------------------------


def rrf(kw: Ranked, vec: Ranked, k: int = 60, w_kw: float = 1.5) -> list[str]:
    """Today's method: weighted Reciprocal Rank Fusion."""
    scores: dict[str, float] = {}
    for rank, (doc, _) in enumerate(vec, start=1):
        scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + rank)
    for rank, (doc, _) in enumerate(kw, start=1):
        scores[doc] = scores.get(doc, 0.0) + w_kw / (k + rank)
    return sorted(scores, key=scores.__getitem__, reverse=True)


def _z(ranked: Ranked, top: int) -> dict[str, float]:
    """Scores as z-scores against the list's first ``top`` (the shape of its head)."""
    head = [s for _, s in ranked[:top]]
    if len(head) < 2:
        return {d: 1.0 for d, _ in ranked}
    mu, sd = statistics.fmean(head), statistics.pstdev(head) or 1.0
    return {d: (s - mu) / sd for d, s in ranked}


def zsum(kw: Ranked, vec: Ranked, w_kw: float = 1.0, top: int = 100) -> list[str]:
    """CombSUM of z-normalised scores; a document missing from a list gets that list's
    lowest z-score."""
    zk, zv = _z(kw, top), _z(vec, top)
    floor_k = min(zk.values(), default=0.0)
    floor_v = min(zv.values(), default=0.0)
    docs = set(zk) | set(zv)
    score = {d: w_kw * zk.get(d, floor_k) + zv.get(d, floor_v) for d in docs}
    return sorted(score, key=score.__getitem__, reverse=True)


def minmax(kw: Ranked, vec: Ranked, alpha: float = 0.5) -> list[str]:
    """Convex combination of min-max normalised scores."""

    def norm(r: Ranked) -> dict[str, float]:
        if not r:
            return {}
        hi, lo = r[0][1], r[-1][1]
        span = (hi - lo) or 1.0
        return {d: (s - lo) / span for d, s in r}

    nk, nv = norm(kw), norm(vec)
    docs = set(nk) | set(nv)
    score = {d: alpha * nk.get(d, 0.0) + (1 - alpha) * nv.get(d, 0.0) for d in docs}
    return sorted(score, key=score.__getitem__, reverse=True)


def _per_query(
    rows: Sequence[dict[str, object]], method: Callable[[Ranked, Ranked], list[str]]
) -> list[tuple[float, float]]:
    """(nDCG@10, R@5) of ``method`` for each of ``rows``."""
    out = []
    for row in rows:
        kw = [tuple(x) for x in row["kw"]]  # type: ignore[union-attr]
        vec = [tuple(x) for x in row["vec"]]  # type: ignore[union-attr]
        ranked = method(kw, vec)  # type: ignore[arg-type]
        rel = row["rel"]
        out.append((ndcg_at_k(ranked, rel), recall_at_k(ranked, rel, 5)))  # type: ignore[arg-type]
    return out


def evaluate(
    rows: Sequence[dict[str, object]], method: Callable[[Ranked, Ranked], list[str]]
) -> tuple[float, float]:
    """Mean nDCG@10 and R@5 of ``method`` over ``rows``."""
    scores = _per_query(rows, method)
    return statistics.fmean(n for n, _ in scores), statistics.fmean(r for _, r in scores)


def _print_table(
    data: dict[str, list[dict[str, object]]],
    methods: dict[str, Callable[[Ranked, Ranked], list[str]]],
    width: int,
) -> None:
    """nDCG@10 / R@5 of each method on the three sets, one row per method."""
    names = ["scifact-train", "locomo-dev", "scifact-test"]
    print(f"{'method':{width}}" + "".join(f"{n:>24}" for n in names))
    for label, method in methods.items():
        cells = []
        for name in names:
            nd, r5 = evaluate(data[name], method)
            cells.append(f"{nd:.4f} / {r5:.4f}".rjust(24))
        print(f"{label:{width}}" + "".join(cells), flush=True)


def tune() -> None:
    """Print each method's figures per dataset."""
    data = json.loads(LISTS.read_text())
    methods: dict[str, Callable[[Ranked, Ranked], list[str]]] = {
        "keyword": lambda kw, vec: [d for d, _ in kw],
        "vector": lambda kw, vec: [d for d, _ in vec],
        "rrf k60 w1.5 (today)": rrf,
    }
    for w in (0.5, 1.0, 1.5, 2.0):
        methods[f"zsum w{w}"] = lambda kw, vec, w=w: zsum(kw, vec, w)
        methods[f"zsum top20 w{w}"] = lambda kw, vec, w=w: zsum(kw, vec, w, 20)
    for a in (0.3, 0.5, 0.7):
        methods[f"minmax a{a}"] = lambda kw, vec, a=a: minmax(kw, vec, a)
    _print_table(data, methods, 28)


def zsum_adaptive(kw: Ranked, vec: Ranked, w_kw: float = 1.0, power: float = 1.0) -> list[str]:
    """z-score CombSUM where each list is weighted by how far its best hit stands out
    (its top z-score): a list whose head is flat says little about this query."""
    zk, zv = _z(kw, 100), _z(vec, 100)
    ck = max(zk.values(), default=0.0) ** power if zk else 0.0
    cv = max(zv.values(), default=0.0) ** power if zv else 0.0
    total = (w_kw * ck + cv) or 1.0
    a, b = w_kw * ck / total, cv / total
    floor_k = min(zk.values(), default=0.0)
    floor_v = min(zv.values(), default=0.0)
    docs = set(zk) | set(zv)
    score = {d: a * zk.get(d, floor_k) + b * zv.get(d, floor_v) for d in docs}
    return sorted(score, key=score.__getitem__, reverse=True)


def tune_more() -> None:
    data = json.loads(LISTS.read_text())
    methods: dict[str, Callable[[Ranked, Ranked], list[str]]] = {}
    for w in (1.0, 1.2, 1.3, 1.5):
        methods[f"zsum w{w}"] = lambda kw, vec, w=w: zsum(kw, vec, w)
    for w in (1.0, 1.3, 1.5):
        for p in (1.0, 2.0):
            methods[f"zadapt w{w} p{p}"] = lambda kw, vec, w=w, p=p: zsum_adaptive(kw, vec, w, p)
    _print_table(data, methods, 28)


def zsum_agreement(
    kw: Ranked,
    vec: Ranked,
    w_kw: float = 1.0,
    floor: float = 0.5,
    full: float = 0.5,
    cap: float | None = None,
) -> list[str]:
    """The product's method (engine/search/fusion.py): z-score CombSUM with the vector
    list weighted by how much its first ten agree with keyword's: 1 from a share of
    ``full`` shared, down to ``floor`` when none are; each list's z-scores capped at
    ``cap`` when given (issue 36: a hit far above one list's rest must not outweigh
    being far down the other)."""
    head = min(10, len(kw), len(vec))
    shared = len({d for d, _ in kw[:10]} & {d for d, _ in vec[:10]}) / head if head else 1.0
    weight = floor + (1 - floor) * min(1.0, shared / full) if head else 1.0
    zk, zv = _z(kw, 100), _z(vec, 100)
    if cap is not None:
        zk = {d: min(z, cap) for d, z in zk.items()}
        zv = {d: min(z, cap) for d, z in zv.items()}
    floor_k = min(zk.values(), default=0.0)
    floor_v = min(zv.values(), default=0.0)
    docs = set(zk) | set(zv)
    score = {d: w_kw * zk.get(d, floor_k) + weight * zv.get(d, floor_v) for d in docs}
    return sorted(score, key=score.__getitem__, reverse=True)


def tune_agreement() -> None:
    """The agreement weight's neighbourhood: keyword weight, floor and the shared share
    that counts as full agreement (chosen: 1.0, 0.5, 0.5)."""
    data = json.loads(LISTS.read_text())
    methods: dict[str, Callable[[Ranked, Ranked], list[str]]] = {
        "zsum w1.2 (before)": lambda kw, vec: zsum(kw, vec, 1.2)
    }
    for w in (0.9, 1.0, 1.1, 1.2):
        for floor in (0.3, 0.5, 0.6):
            for full in (0.2, 0.33, 0.5, 1.0):
                methods[f"agree w{w} floor{floor} full{full}"] = (
                    lambda kw, vec, w=w, f=floor, u=full: zsum_agreement(kw, vec, w, f, u)
                )
    _print_table(data, methods, 32)


def _per_query_r5(
    rows: Sequence[dict[str, object]], method: Callable[[Ranked, Ranked], list[str]]
) -> list[float]:
    return [r5 for _, r5 in _per_query(rows, method)]


def crossval() -> None:
    """Leave one LoCoMo conversation out: choose the fusion (keyword weight, floor, full
    agreement) as the product's was chosen — best R@5 on the other conversations among
    the variants that keep SciFact train nDCG@10 at or above the fusion before it (plain
    z-scores, keyword weight 1.2) — and score
    the choice on the conversation left out. Shows whether the choice carries to
    conversations it was not fitted on (the hidden half is measured that way)."""
    data = json.loads(LISTS.read_text())
    methods: dict[str, Callable[[Ranked, Ranked], list[str]]] = {
        f"zsum w{w}": (lambda kw, vec, w=w: zsum(kw, vec, w)) for w in (1.0, 1.2, 1.5)
    }
    for w in (0.9, 1.0, 1.1, 1.2):
        for floor in (0.3, 0.5, 0.6, 0.7):
            for full in (0.2, 0.33, 0.5, 1.0):
                methods[f"agree w{w} floor{floor} full{full}"] = (
                    lambda kw, vec, w=w, f=floor, u=full: zsum_agreement(kw, vec, w, f, u)
                )
    bar = evaluate(data["scifact-train"], methods["zsum w1.2"])[0]
    allowed = [m for m in methods if evaluate(data["scifact-train"], methods[m])[0] >= bar]
    locomo = data["locomo-dev"]
    conv = [str(r["q"]).rsplit("-q", 1)[0] for r in locomo]
    product = "agree w1.0 floor0.5 full0.5"
    r5 = {m: _per_query_r5(locomo, methods[m]) for m in {*allowed, "zsum w1.0", product}}
    r5["keyword"] = _per_query_r5(locomo, lambda kw, vec: [d for d, _ in kw])
    print(f"{len(allowed)} of {len(methods)} variants keep SciFact train nDCG@10 >= {bar:.4f}")
    print(
        f"{'left out':10}{'chosen on the rest':>34}{'R@5 chosen':>12}{'zsum w1.0':>11}"
        f"{'keyword':>9}{'product':>9}"
    )
    product = "agree w1.0 floor0.5 full0.5"
    totals: dict[str, list[float]] = {"chosen": [], "zsum": [], "keyword": [], "product": []}
    for held in sorted(set(conv)):
        rest = [i for i, c in enumerate(conv) if c != held]
        out = [i for i, c in enumerate(conv) if c == held]
        best = max(allowed, key=lambda m: statistics.fmean(r5[m][i] for i in rest))
        picks = {"chosen": best, "zsum": "zsum w1.0", "keyword": "keyword", "product": product}
        cells = {k: [r5[m][i] for i in out] for k, m in picks.items()}
        for k, v in cells.items():
            totals[k] += v
        print(
            f"{held:10}{best:>34}"
            + "".join(
                f"{statistics.fmean(cells[k]):{w}.4f}"
                for k, w in (("chosen", 12), ("zsum", 11), ("keyword", 9), ("product", 9))
            )
        )
    print(
        f"{'all':44}"
        + "".join(
            f"{statistics.fmean(totals[k]):{w}.4f}"
            for k, w in (("chosen", 12), ("zsum", 11), ("keyword", 9), ("product", 9))
        )
    )


def _word_and_phrase_lists(memory: object, id_map: dict[str, str], text: str) -> dict[str, object]:
    """A query's BM25 over its words (top :data:`DEPTH`) and over its adjacent word pairs
    as phrases, both raw (higher is better), straight from the mirror's FTS5 index."""
    from engine.search.keyword import BM25_WEIGHTS
    from engine.search.query import build_match_query, build_phrase_query

    mirror = parts_of(memory).mirror  # type: ignore[attr-defined]
    rank = f"SELECT e.id, bm25(memory_fts, {BM25_WEIGHTS}) AS r FROM memory_fts JOIN entries e"
    rank += " ON e.rowid = memory_fts.rowid WHERE memory_fts MATCH ? ORDER BY r"
    match, phrases = build_match_query(text), build_phrase_query(text)
    words = mirror.read(rank + " LIMIT ?", (match, DEPTH)) if match else []
    pairs = mirror.read(rank, (phrases,)) if phrases else []
    return {
        "kw": [(id_map[i], -r) for i, r in words],
        "ph": {id_map[i]: -r for i, r in pairs if i in id_map},
    }


def phrases() -> None:
    """The keyword list reranked by ``words + weight * phrases`` (the product's
    :data:`engine.search.keyword.PHRASE_WEIGHT`), alone and fused, per weight; LoCoMo R@5
    per conversation too. Uses the vector lists of :data:`LISTS` (``collect``)."""
    from bench.scifact import load_queries, open_memory
    from engine.core.config import Config
    from engine.services.memory import Memory

    data = json.loads(LISTS.read_text())
    lists: dict[str, list[dict[str, object]]] = {}
    memory, id_map, _ = open_memory(False)
    for split in ("train", "test"):
        queries, _ = load_queries(split)
        lists[f"scifact-{split}"] = [
            _word_and_phrase_lists(memory, id_map, queries[str(r["q"])])
            for r in data[f"scifact-{split}"]
        ]
    memory.close()
    texts = {}
    for conv in sorted(p.name for p in LOCOMO.iterdir() if p.is_dir()):
        for r in _read_jsonl(LOCOMO / conv / "queries.jsonl"):
            texts[str(r["_id"])] = (conv, str(r["text"]))
    by_query: dict[str, dict[str, object]] = {}
    for conv in sorted({conv for conv, _ in texts.values()}):
        root = CACHE / "locomo" / conv
        ids = json.loads((root / "doc_ids.json").read_text())
        with Memory.open(root, config=replace(Config(), secret_policy="redact")) as mem:
            for qid, (owner, text) in texts.items():
                if owner == conv:
                    by_query[qid] = _word_and_phrase_lists(mem, ids, text)
    lists["locomo-dev"] = [by_query[str(row["q"])] for row in data["locomo-dev"]]
    for weight in (0.0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5):
        cells, per_conv = [], {}
        for name in ("scifact-train", "locomo-dev", "scifact-test"):
            rows = []
            for row, got in zip(data[name], lists[name], strict=True):
                bonus: dict[str, float] = got["ph"]  # type: ignore[assignment]
                kw = [(d, s + weight * bonus.get(d, 0.0)) for d, s in got["kw"]]  # type: ignore[attr-defined]
                rows.append({**row, "kw": sorted(kw, key=lambda x: -x[1])})
            k, h = (
                evaluate(rows, lambda kw, vec: [d for d, _ in kw]),
                evaluate(rows, zsum_agreement),
            )
            cells.append(f"kw {k[0]:.4f}/{k[1]:.4f} hybrid {h[0]:.4f}/{h[1]:.4f}")
            if name == "locomo-dev":
                for row, r5 in zip(rows, _per_query_r5(rows, zsum_agreement), strict=True):
                    per_conv.setdefault(str(row["q"]).rsplit("-q", 1)[0], []).append(r5)
        convs = " ".join(f"{statistics.fmean(v):.3f}" for v in per_conv.values())
        print(f"weight {weight:<5}" + " | ".join(cells) + f" | LoCoMo R@5 by conversation {convs}")


def tune_cap() -> None:
    """Each list's z-scores capped (issue 36), against the product's fusion uncapped."""
    data = json.loads(LISTS.read_text())
    methods: dict[str, Callable[[Ranked, Ranked], list[str]]] = {
        "agreement, no cap (before)": zsum_agreement
    }
    for cap in (1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0):
        methods[f"agreement, cap {cap}"] = lambda kw, vec, c=cap: zsum_agreement(kw, vec, cap=c)
    _print_table(data, methods, 32)


if __name__ == "__main__":
    commands = {
        "cap": tune_cap,
        "collect": collect,
        "tune": tune,
        "more": tune_more,
        "agreement": tune_agreement,
        "crossval": crossval,
        "phrases": phrases,
    }
    commands[sys.argv[1] if len(sys.argv) > 1 else "tune"]()
