"""Does default search say nothing when nothing answers? (issue 36)

    python -m bench.relevance build      # init each bench/repo_qa repository and this project once
    python -m bench.relevance measure    # off-topic silence, on-topic hit@5, top-score spread

``build`` copies each ``bench/repo_qa`` repository at its recorded commit (from the tool
library's mirror, as ``python -m bench.repo_qa`` does) and this project at ``HEAD`` into
``bench/.cache/relevance/<name>`` and runs the real ``memory-tui init --no-hooks`` there,
once: every later ``measure`` searches the same memories, so before and after a change to
search are compared on the same entries. ``--cache DIR`` builds and measures memories in
``DIR`` instead (a second build, of a change to what is indexed).

``measure`` opens each memory in-process and asks, with the product's defaults (the
configured mode, limit and relevance floor, exactly what ``memory-tui search QUERY``,
``memory_search`` and the app run):

- every off-topic query of ``bench/repo_qa/offtopic.json``: does the search return
  nothing? (per group: nonsense strings, everyday topics, absent programming topics);
- every on-topic question of the repository's set: hybrid hit@5 at file level, with the
  limit of 10 that ``bench.repo_qa`` uses and, separately, with the default limit;
- per gated mode (hybrid, vector; limit 10): hit@5, MRR@10 and the questions with a
  summary entry (a module's, a package's, the project's overview) in the top 5 that is not
  from an answer file (issue 50: a summary never displaces the section that answers);
- the shown score of the first result (when there is one) and its cosine similarity, for
  on-topic and off-topic queries with the floor open (``min_score = 0``) so that the two
  distributions are compared over every query: median, 10th and 90th percentiles;
- for every on-topic question whose answer is not in the first five, why
  (:func:`explain_miss`): ``silenced`` (the search returned nothing: the gate judged no
  candidate relevant), ``reordered`` (an answering entry is in the first five files of the
  fused ranking, which the gate's order moved down), or ``outranked`` (not in the fused
  ranking's first five either: the answering entry's best ranks in both lists, its cosine
  and coverage, and its section).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bench.repo_qa import (
    REPOSITORIES,
    Question,
    hit_at,
    load,
    off_topic_groups,
    reciprocal_rank,
)

if TYPE_CHECKING:
    from engine import Memory

CACHE = Path(__file__).parent / ".cache" / "relevance"
SELF = "self"


def _archive(git_args: list[str], commit: str, into: Path) -> None:
    into.mkdir(parents=True)
    archive = subprocess.run(["git", *git_args, "archive", commit], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    subprocess.run(["git", "init", "-q", str(into)], check=True)


def build(names: list[str], self_commit: str, cache: Path = CACHE) -> None:
    """Copy and ``init`` every memory not built yet (in ``cache``)."""
    cli = Path(sys.executable).parent / "memory-tui"
    for name in names:
        root = cache / name
        if (root / ".claude" / "memory").exists():
            print(f"{name}: built already", flush=True)
            continue
        if name == SELF:
            here = Path(__file__).resolve().parents[1]
            _archive(["-C", str(here)], self_commit, root)
        else:
            qs = load(name)
            owner, _, repo = qs.repo.partition("/")
            _archive([f"--git-dir=/work/.mirror/{owner}+{repo}/repo"], qs.commit, root)
        started = time.perf_counter()
        done = subprocess.run(
            [str(cli), "init", "--no-hooks"], cwd=root, capture_output=True, text=True, check=False
        )
        if done.returncode:
            raise SystemExit(f"init failed in {root}:\n{done.stderr[-2000:]}")
        print(f"{name}: init {time.perf_counter() - started:.1f} s", flush=True)


def _spread(values: list[float]) -> dict[str, float | int]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    cut = statistics.quantiles(ordered, n=10, method="inclusive") if len(ordered) > 1 else None
    return {
        "n": len(ordered),
        "p10": round(cut[0] if cut else ordered[0], 4),
        "median": round(statistics.median(ordered), 4),
        "p90": round(cut[-1] if cut else ordered[0], 4),
    }


def measure_one(name: str, cache: Path = CACHE) -> dict[str, object]:
    """Every figure for one built memory (in ``cache``)."""
    from engine import Memory
    from engine.core.models import SearchMode

    root = cache / name
    figures: dict[str, object] = {"memory": name}
    groups = off_topic_groups()
    loud: dict[str, list[str]] = {}
    with Memory.open(root) as memory:
        for group, queries in groups.items():
            silent = 0
            for query in queries:
                found = memory.search(query).results
                if found:
                    loud.setdefault(group, []).append(query)
                else:
                    silent += 1
            figures[f"silent_{group}"] = silent / len(queries)
        figures["silent_all"] = sum(len(q) for q in groups.values()) - sum(map(len, loud.values()))
        figures["silent_all"] = figures["silent_all"] / sum(len(q) for q in groups.values())  # type: ignore[operator]
        figures["loud"] = loud
        questions = load(name).questions if name != SELF else ()
        if questions:
            hits10, hits_default, misses = [], [], []
            for question in questions:
                found = memory.search(question.q, limit=10).results
                files = [r.entry.file_path for r in found]
                hits10.append(hit_at(files, question.files))
                if not hits10[-1]:
                    misses.append(explain_miss(memory, question.q, question.files, bool(found)))
                files = [r.entry.file_path for r in memory.search(question.q).results]
                hits_default.append(hit_at(files, question.files))
            figures["hybrid_hit@5"] = sum(hits10) / len(hits10)
            figures["hybrid_hit@5_default_limit"] = sum(hits_default) / len(hits_default)
            figures["misses"] = misses
            figures |= summary_figures(memory, questions)
        on = _top_scores(memory, [q.q for q in questions], SearchMode.HYBRID)
        figures["top_score_on"], figures["top_cosine_on"] = _spread(on[0]), _spread(on[1])
        off_q = [q for queries in groups.values() for q in queries]
        off_s, off_c = _top_scores(memory, off_q, SearchMode.HYBRID)
        figures["top_score_off"], figures["top_cosine_off"] = _spread(off_s), _spread(off_c)
    return figures


def summary_figures(memory: Memory, questions: Sequence[Question]) -> dict[str, object]:
    """Per gated mode (limit 10, as ``bench.repo_qa``): hit@5, MRR@10, and how many
    questions had a summary entry (a module's, a package's, the project's overview) in
    the top 5 that is not from an answer file (issue 50)."""
    from bench.repo_qa.__main__ import unanswering_summaries

    figures: dict[str, object] = {}
    for mode in ("hybrid", "vector"):
        hits, rr, placed = [], [], []
        for question in questions:
            found = memory.search(question.q, mode=mode, limit=10).results
            files = [r.entry.file_path for r in found]
            hits.append(hit_at(files, question.files))
            rr.append(reciprocal_rank(files, question.files))
            placed.append(unanswering_summaries(found, question.files))
        figures[f"{mode}_hit@5_limit10"] = sum(hits) / len(hits)
        figures[f"{mode}_mrr_limit10"] = sum(rr) / len(rr)
        figures[f"{mode}_summary_top5"] = f"{sum(n > 0 for n in placed)}/{len(placed)}"
    # What `memory-tui hook` injects without a server (its keyword selection), in-process.
    from app.prompt_hook import entries_for

    hook = [any(r.entry.file_path in q.files for r in entries_for(memory, q.q)) for q in questions]
    figures["hook_hit"] = sum(hook) / len(hook)
    return figures


def explain_miss(
    memory: object, question: str, answers: Sequence[str], returned: bool
) -> dict[str, object]:
    """Why default search missed ``question`` (see the module docstring): the fused
    ranking of both lists (100 candidates each, as hybrid search draws them) before the
    gate judges and orders it, and where the best answering entry stands in it."""
    from bench.search_oracles import fuse
    from engine.search.query import Query
    from engine.search.scoring import coverage
    from engine.services.parts import parts_of

    searcher = parts_of(memory).searcher  # type: ignore[arg-type]
    asked = Query.parse(question)
    qvec = searcher.query_cache.embed_query(parts_of(memory).embedder, asked.text)  # type: ignore[arg-type]
    depth = 100
    vhits = searcher.vectors.search(qvec, depth)
    khits = searcher.keyword.search(asked, depth)
    fused = fuse(
        vhits,
        khits,
        searcher.rrf_k,
        searcher.keyword_weight,
        searcher.fusion,
        keyword_complete=len(khits) < depth,
    )
    files = [r.entry.file_path for r in fused]
    why: dict[str, object] = {"q": question, "answers": list(answers)}
    if not returned:
        why["cause"] = "silenced"
    elif hit_at(list(dict.fromkeys(files)), answers):
        why["cause"] = "reordered"
    else:
        why["cause"] = "outranked"
    best = next((r for r in fused if r.entry.file_path in answers), None)
    if best is None:
        why["answer"] = "in neither list's first 100"
        return why
    sims = searcher.vectors.similarities(qvec, [best.entry])
    weights = searcher.keyword.query_weights(asked)
    why["answer"] = {
        "fused_rank": fused.index(best) + 1,
        "file_rank": list(dict.fromkeys(files)).index(best.entry.file_path) + 1,
        "vector_rank": best.explanation.vector_rank,
        "keyword_rank": best.explanation.keyword_rank,
        "cosine": round(sims.get(best.entry.id, float("nan")), 4),
        "coverage": round(coverage(weights, best.entry), 4),
        "section": best.entry.section_title,
    }
    return why


def _top_scores(
    memory: object, queries: list[str], mode: object
) -> tuple[list[float], list[float]]:
    """The first result's shown score and cosine for each query, the floor open."""
    scores, cosines = [], []
    for query in queries:
        found = memory.search(query, mode=mode, min_score=0.0).results  # type: ignore[attr-defined]
        if found:
            scores.append(found[0].score)
            sim = found[0].explanation.vector_similarity
            if sim is not None:
                cosines.append(sim)
    return scores, cosines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.relevance", description=__doc__)
    parser.add_argument("step", choices=["build", "measure"])
    parser.add_argument("--memory", action="append", choices=[*REPOSITORIES, SELF])
    parser.add_argument("--self-commit", default="HEAD", help="this project's commit to index")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument(
        "--cache", type=Path, default=CACHE, help="where the memories are built (%(default)s)"
    )
    args = parser.parse_args(argv)
    names = args.memory or [*REPOSITORIES, SELF]
    if args.step == "build":
        build(names, args.self_commit, args.cache)
        return 0
    results = []
    for name in names:
        figures = measure_one(name, args.cache)
        results.append(figures)
        print(f"\n{name}")
        for key, value in figures.items():
            if key in ("memory", "loud", "misses"):
                continue
            print(f"  {key:28} {value:.3f}" if isinstance(value, float) else f"  {key:28} {value}")
        print(f"  returned something for: {json.dumps(figures['loud'])}", flush=True)
        for miss in figures.get("misses", ()):  # type: ignore[attr-defined]
            print(f"  missed ({miss['cause']}): {json.dumps(miss)}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
