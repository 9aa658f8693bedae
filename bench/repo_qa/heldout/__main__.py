"""``python -m bench.repo_qa.heldout``: the held-out check of issue 50 (session 17).

Three repositories whose documentation layout or language no ``bench/repo_qa`` set has
(an Elixir library with ex_doc guides, a Haskell package with haddock comments, a C tool
documented by its man page), ten questions each written against the file list before
any run, never tuned on. For each: a copy at the recorded commit (``git archive`` of the
tool library's mirror, or of ``--git-dir``) in ``--cache``, the real ``memory-tui init
--no-hooks`` there, timed, with what it prints (its source counts by rule); ``memory-tui
sources --explain`` on the set's three ``explain`` files; hybrid and vector hit@5 and
MRR@10 at file level (limit 10, as ``bench.repo_qa``), the questions with a summary not
from an answer file in the hybrid top 5, the hook's no-server selection, and the three
plain BM25 baselines of ``bench/repo_qa/baselines.py``. ``--measure-only`` searches the
memories already built (to compare two versions of search on the same entries).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from bench.repo_qa import hit_at, load, reciprocal_rank
from bench.repo_qa.baselines import bm25_baseline

SETS = ("broadway", "optparse_applicative", "entr")
CACHE = Path(__file__).parents[2] / ".cache" / "heldout"


def build(name: str, root: Path, git_dir: Path | None) -> None:
    """Copy the set's commit into ``root`` and run ``memory-tui init`` there, printing
    its time and output."""
    qs = load(f"heldout/{name}")
    owner, _, repo = qs.repo.partition("/")
    source = git_dir or Path(f"/work/.mirror/{owner}+{repo}/repo")
    root.mkdir(parents=True)
    archive = subprocess.run(
        ["git", f"--git-dir={source}", "archive", qs.commit], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive.stdout, check=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    cli = Path(sys.executable).parent / "memory-tui"
    started = time.perf_counter()
    done = subprocess.run(
        [str(cli), "init", "--no-hooks"], cwd=root, capture_output=True, text=True, check=False
    )
    took = time.perf_counter() - started
    if done.returncode:
        raise SystemExit(f"init failed in {root}:\n{done.stderr[-2000:]}")
    print(f"init {took:.1f} s\n{done.stdout}", flush=True)


def explain(name: str, root: Path) -> None:
    """``memory-tui sources --explain`` on the set's three files."""
    files = json.loads((Path(__file__).parent / f"{name}.json").read_text())["explain"]
    cli = Path(sys.executable).parent / "memory-tui"
    done = subprocess.run(
        [str(cli), "sources", "--explain", *files], cwd=root, capture_output=True, text=True
    )
    print(done.stdout + done.stderr, flush=True)


def measure(name: str, root: Path) -> dict[str, object]:
    """Search figures and the BM25 baselines of one built set."""
    from app.prompt_hook import entries_for
    from bench.repo_qa.__main__ import unanswering_summaries
    from engine import Memory

    qs = load(f"heldout/{name}")
    figures: dict[str, object] = {"set": name}
    misses: list[dict[str, object]] = []
    with Memory.open(root) as memory:
        for mode in ("hybrid", "vector"):
            hits, rr, placed = [], [], []
            for question in qs.questions:
                found = memory.search(question.q, mode=mode, limit=10).results
                files = [r.entry.file_path for r in found]
                hits.append(hit_at(files, question.files))
                rr.append(reciprocal_rank(files, question.files))
                placed.append(unanswering_summaries(found, question.files))
                if mode == "hybrid" and not hits[-1]:
                    misses.append({"q": question.q, "want": question.files, "got": files[:5]})
            figures[f"{mode}_hit@5"] = round(sum(hits) / len(hits), 3)
            figures[f"{mode}_mrr"] = round(sum(rr) / len(rr), 3)
            figures[f"{mode}_summary_top5"] = f"{sum(n > 0 for n in placed)}/{len(placed)}"
        hook = [
            any(r.entry.file_path in q.files for r in entries_for(memory, q.q))
            for q in qs.questions
        ]
        figures["hook_hit"] = round(sum(hook) / len(hook), 3)
    figures |= {k: round(v, 3) for k, v in bm25_baseline(qs, root).items()}
    figures["misses"] = misses
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.repo_qa.heldout", description=__doc__)
    parser.add_argument("--set", action="append", choices=SETS, dest="sets")
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--git-dir", type=Path, help="a bare clone holding the commit")
    parser.add_argument("--measure-only", action="store_true")
    parser.add_argument("--json", type=Path, help="write every figure here")
    args = parser.parse_args(argv)
    results = []
    for name in args.sets or SETS:
        root = args.cache / name
        print(f"\n== {name}", flush=True)
        if not args.measure_only:
            build(name, root, args.git_dir)
            explain(name, root)
        figures = measure(name, root)
        results.append(figures)
        for key, value in figures.items():
            if key != "misses":
                print(f"  {key:24} {value}")
        for miss in figures["misses"]:  # type: ignore[attr-defined]
            print(f"  missed: {json.dumps(miss)}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
