"""``python -m bench.repo_qa``: init a fresh copy of each repository, ask its questions.

For each repository: ``memory-tui init`` (the real entry point, the real model) on a fresh
copy at the recorded commit, timed; hit@5 and MRR@10 at file level per search mode, with
the hits split into questions answered by docs and by source; the hook (``memory-tui
hook``, the real entry point in a fresh process per prompt, as Claude Code runs it): its
hit rate on the same questions, its latency p50/p95 and its silence on off-topic prompts;
what the memory holds: entries, the share from release notes, examples, tests, vendored or
generated code (the bench's path rule), the largest single file's share, entries with
fewer than 3 words, entries of test code inside source files. Beside every figure, three
plain BM25 baselines (``bm25s``, English stop words, Snowball-stemmed) over the files
matching the set's ``source_globs``: whole files, 60-line windows, and whole files without
tests/examples/vendor (the bench's path rule). Beside them, the share of entries that
summarise a module, package or the project, and how often one holds a top-5 place without
being an answer.

The repository comes from ``--git-dir`` (a bare clone holding the commit), else the tool
library's mirror ``/work/.mirror/<owner>+<name>/repo`` when present, else a bare clone in
``--repos-dir`` (cloned from GitHub when absent; see ``bench/repo_qa/repos.py``).
``--save-paths`` writes the list of tracked paths shipped beside each set.

Before any ``memory-tui`` run, the bytecode of the code it runs (``engine`` and ``app`` as
this interpreter imports them) is compiled, as installing the package does: with
``PYTHONDONTWRITEBYTECODE`` set and none compiled, every hook compiled every module it
imports, ~80 ms of CPU a prompt (bench/RESULTS.md, "Issue 50: the hook's time is its
imports").
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.metrics import percentile
from bench.repo_qa import (
    HIT_K,
    REPOSITORIES,
    SUMMARY_KINDS,
    QuestionSet,
    hit_at,
    injected_files,
    is_doc,
    is_noise,
    is_test_code,
    load,
    off_topic,
    question_kind,
    reciprocal_rank,
    summary_kind,
    word_count,
)
from bench.repo_qa.baselines import BASELINES, bm25_baseline
from bench.repo_qa.repos import checkout, default_repos_dir, save_paths, source_repo
from engine import Entry, SearchResult

MODES = ("keyword", "vector", "hybrid")
FEW_WORDS = 3


def compile_bytecode() -> None:
    """Write the bytecode of ``engine`` and ``app`` (where this interpreter imports them
    from, as ``memory-tui`` does), as an install does."""
    import app
    import engine

    folders = [str(Path(m.__file__ or "").parent) for m in (engine, app)]
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", *folders],
        check=True,
        capture_output=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    )


def run_init(root: Path) -> float:
    """Seconds taken by ``memory-tui init`` (no git hooks) in ``root``."""
    cli = Path(sys.executable).parent / "memory-tui"
    started = time.perf_counter()
    done = subprocess.run(
        [str(cli), "init", "--no-hooks"], cwd=root, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"init failed in {root}:\n{done.stderr[-2000:]}")
    return time.perf_counter() - started


def evaluate(qs: QuestionSet, root: Path) -> dict[str, object]:
    """Search, hook and store figures for one initialised repository."""
    from engine import Memory

    figures: dict[str, object] = {}
    misses: dict[str, list[dict[str, object]]] = {}
    kinds = [question_kind(q) for q in qs.questions]
    with Memory.open(root) as memory:
        for mode in MODES:
            hits, rr, placed = [], [], []
            for question in qs.questions:
                results = memory.search(question.q, mode=mode, limit=10).results
                files = [r.entry.file_path for r in results]
                hits.append(hit_at(files, question.files))
                rr.append(reciprocal_rank(files, question.files))
                placed.append(unanswering_summaries(results, question.files))
                if not hits[-1]:
                    misses.setdefault(mode, []).append({"q": question.q, "got": files[:HIT_K]})
            figures[f"{mode}_hit@{HIT_K}"] = sum(hits) / len(hits)
            figures[f"{mode}_mrr"] = sum(rr) / len(rr)
            figures[f"{mode}_by_kind"] = by_kind(hits, kinds)
            figures[f"{mode}_summary_top5"] = sum(n > 0 for n in placed) / len(placed)
            figures[f"{mode}_summary_places"] = sum(placed)
        entries = memory.list(limit=1_000_000)
    hook: list[float] = []
    seconds: list[float] = []
    complaints: list[str] = []
    for question in qs.questions:
        took, out = run_hook(root, question.q, complaints)
        seconds.append(took)
        hook.append(float(any(f in question.files for f in injected_files(out))))
        if not hook[-1]:
            misses.setdefault("hook", []).append({"q": question.q, "got": injected_files(out)})
    silent = []
    for prompt in off_topic():
        took, out = run_hook(root, prompt, complaints)
        seconds.append(took)
        silent.append(not out)
        if out:
            misses.setdefault("off_topic", []).append({"q": prompt, "got": injected_files(out)})
    figures["hook_hit"] = sum(hook) / len(hook)
    figures["hook_by_kind"] = by_kind(hook, kinds)
    figures["hook_silent_off_topic"] = sum(silent) / len(silent)
    figures["hook_p50_s"] = round(statistics.median(seconds), 3)
    figures["hook_p95_s"] = round(percentile(seconds, 95), 3)
    figures["hook_stderr"] = len(complaints)
    if complaints:
        misses["hook_stderr"] = [{"q": "", "got": [c]} for c in complaints[:5]]
    figures |= store_figures(entries)
    figures["misses"] = misses  # in --json only: what each miss returned instead
    return figures


def unanswering_summaries(results: Sequence[SearchResult], answers: Sequence[str]) -> int:
    """How many of the first :data:`HIT_K` results summarise a module, package or the
    project (:func:`summary_kind`) without coming from an answer file."""
    return sum(
        bool(summary_kind(str(r.entry.category), r.entry.section_title))
        and r.entry.file_path not in answers
        for r in results[:HIT_K]
    )


def by_kind(hits: list[float], kinds: list[str]) -> dict[str, str]:
    """Hits per question kind, as ``found/asked``."""
    return {
        kind: f"{sum(h for h, k in zip(hits, kinds, strict=True) if k == kind):.0f}"
        f"/{kinds.count(kind)}"
        for kind in ("doc", "source")
    }


def run_hook(root: Path, prompt: str, complaints: list[str]) -> tuple[float, str]:
    """Seconds and output of one ``memory-tui hook`` run in ``root``, as Claude Code runs it
    (a fresh process, the prompt's JSON on stdin); what it writes to stderr goes to
    ``complaints`` (the hook exits 0 even when it fails, so this is where failures show)."""
    cli = Path(sys.executable).parent / "memory-tui"
    payload = json.dumps({"prompt": prompt, "cwd": str(root)})
    started = time.perf_counter()
    done = subprocess.run(
        [str(cli), "hook"], input=payload, cwd=root, capture_output=True, text=True, check=False
    )
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"memory-tui hook failed in {root}:\n{done.stderr[-2000:]}")
    if done.stderr.strip():
        complaints.append(done.stderr.strip()[-500:])
    return took, done.stdout


def store_figures(entries: Sequence[Entry]) -> dict[str, object]:
    """What the memory holds: noise share, the largest file's share, entries with fewer
    than :data:`FEW_WORDS` words, test code inside (path-wise) non-test source files, and
    the entries summarising a module, package or the project (their share, and by kind)."""
    total = max(1, len(entries))
    per_file: dict[str, int] = {}
    for entry in entries:
        if entry.file_path:
            per_file[entry.file_path] = per_file.get(entry.file_path, 0) + 1
    largest = max(per_file, key=lambda f: per_file[f], default="")
    sources = {f: n for f, n in per_file.items() if not is_doc(f)}
    largest_source = max(sources, key=lambda f: sources[f], default="")
    in_source = [
        e for e in entries if e.file_path and not is_doc(e.file_path) and not is_noise(e.file_path)
    ]
    summaries = [summary_kind(str(e.category), e.section_title) for e in entries]
    return {
        "entries": len(entries),
        "noise_share": sum(is_noise(e.file_path) for e in entries) / total,
        "largest_file_share": per_file.get(largest, 0) / total,
        "largest_file": largest,
        "largest_source_file_share": sources.get(largest_source, 0) / total,
        "largest_source_file": largest_source,
        "entries_under_3_words": sum(word_count(e.content) < FEW_WORDS for e in entries),
        "test_in_source_share": sum(is_test_code(e.content) for e in in_source) / total,
        "summary_share": sum(bool(kind) for kind in summaries) / total,
        "summaries": {kind: summaries.count(kind) for kind in SUMMARY_KINDS},
    }


def measure(
    name: str, git_dir: Path | None, repos_dir: Path, bm25_only: bool = False
) -> dict[str, object]:
    """Every figure for one repository (only the BM25 baselines with ``bm25_only``)."""
    qs = load(name)
    source = source_repo(qs, git_dir, repos_dir)
    kinds = [question_kind(q) for q in qs.questions]
    with tempfile.TemporaryDirectory(prefix=f"repo-qa-{name}-") as tmp:
        root = checkout(qs, source, Path(tmp) / name)
        figures: dict[str, object] = {"repository": qs.repo, "commit": qs.commit[:12]}
        figures["questions"] = len(qs.questions)
        figures["doc_questions"] = kinds.count("doc")
        if not bm25_only:
            figures["init_s"] = round(run_init(root), 1)
            figures |= evaluate(qs, root)
        figures |= bm25_baseline(qs, root)
    return figures


def init_times(name: str, git_dir: Path | None, repos_dir: Path, trials: int) -> dict[str, object]:
    """``memory-tui init`` alone, ``trials`` times on fresh copies: each time and the median."""
    qs = load(name)
    source = source_repo(qs, git_dir, repos_dir)
    times = []
    for _ in range(trials):
        with tempfile.TemporaryDirectory(prefix=f"repo-qa-{name}-") as tmp:
            root = checkout(qs, source, Path(tmp) / name)
            files = sum(
                1 for path in root.rglob("*") if path.is_file() and ".git" not in path.parts
            )
            times.append(round(run_init(root), 1))
    return {
        "repository": qs.repo,
        "files": files,
        "init_s": times,
        "init_median_s": statistics.median(times),
    }


def report(figures: dict[str, Any]) -> str:
    """One repository's figures as a table, the three BM25 baselines beside each one."""
    asked = figures["questions"]
    docs = figures["doc_questions"]
    lines = [
        f"\n{figures['repository']} @ {figures['commit']} "
        f"({asked} questions: {docs} doc, {asked - docs} source)",
        f"  {'':22} {'hit@5':>6} {'MRR@10':>7}  {'doc':>5} {'source':>6}   "
        "BM25 whole / 60-line windows / no tests-examples-vendor",
    ]

    def bm25(metric: str) -> str:
        return " / ".join(f"{figures[f'{b}_{metric}']:.3f}" for b in BASELINES)

    for mode in MODES if "init_s" in figures else ():
        split = figures[f"{mode}_by_kind"]
        lines.append(
            f"  {mode:22} {figures[f'{mode}_hit@{HIT_K}']:6.3f} {figures[f'{mode}_mrr']:7.3f}"
            f"  {split['doc']:>5} {split['source']:>6}   hit@5 {bm25(f'hit@{HIT_K}')}"
            f"  MRR {bm25('mrr')}"
        )
    if "init_s" in figures:
        split = figures["hook_by_kind"]
        lines += [
            f"  {'hook hit':22} {figures['hook_hit']:6.3f} {'':7}  {split['doc']:>5}"
            f" {split['source']:>6}   hit@5 {bm25(f'hit@{HIT_K}')}",
            f"  {'hook latency':22} p50 {figures['hook_p50_s']:.3f} s, "
            f"p95 {figures['hook_p95_s']:.3f} s (a fresh `memory-tui hook` per prompt)",
            f"  {'hook silent off-topic':22} {figures['hook_silent_off_topic']:6.3f}"
            + f"   ({figures.get('hook_stderr', 0)} runs wrote to stderr: see --json)"
            * bool(figures.get("hook_stderr", 0)),
            f"  {'entries':22} {figures['entries']:6d}   noise share "
            f"{figures['noise_share']:.3f}, under {FEW_WORDS} words "
            f"{figures['entries_under_3_words']}, test code in source files "
            f"{figures['test_in_source_share']:.3f}",
            summary_line(figures),
            f"  {'largest file share':22} {figures['largest_file_share']:6.3f}   "
            f"{figures['largest_file']}; largest source file "
            f"{figures['largest_source_file_share']:.3f} {figures['largest_source_file']}",
            f"  {'init (s)':22} {figures['init_s']:6.1f}",
        ]
    else:
        lines.append(f"  {'BM25 only':22} hit@5 {bm25(f'hit@{HIT_K}')}  MRR {bm25('mrr')}")
    return "\n".join(lines)


def summary_line(figures: dict[str, Any]) -> str:
    """The summaries' share of the entries, by kind, and per mode how many questions had
    one in the top 5 without it being an answer (and how many places they held)."""
    kinds = ", ".join(f"{kind} {figures['summaries'][kind]}" for kind in SUMMARY_KINDS)
    asked = figures["questions"]
    placed = ", ".join(
        f"{mode} {round(figures[f'{mode}_summary_top5'] * asked)}/{asked}"
        f" ({figures[f'{mode}_summary_places']} places)"
        for mode in MODES
    )
    return (
        f"  {'summary entries':22} {figures['summary_share']:6.3f}   ({kinds}); in the top 5"
        f" without being an answer: {placed}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.repo_qa",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--repo", choices=REPOSITORIES, action="append")
    parser.add_argument("--git-dir", type=Path, help="bare clone holding the commit")
    parser.add_argument(
        "--repos-dir",
        type=Path,
        default=default_repos_dir(),
        help="cache folder of bare clones, each cloned when absent (default: %(default)s)",
    )
    parser.add_argument(
        "--save-paths",
        action="store_true",
        help="only write each set's list of tracked paths (bench/repo_qa/<name>.paths.gz)",
    )
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument(
        "--bm25-only", action="store_true", help="only the BM25 baselines (no init, no model)"
    )
    parser.add_argument(
        "--init-only", type=int, metavar="N", help="only time `init`, N times on fresh copies"
    )
    args = parser.parse_args(argv)
    results = []
    if not (args.save_paths or args.bm25_only):
        compile_bytecode()
    if args.save_paths:
        for name in args.repo or REPOSITORIES:
            qs = load(name)
            print(save_paths(qs, source_repo(qs, args.git_dir, args.repos_dir)), flush=True)
        return 0
    if args.init_only:
        for name in args.repo or REPOSITORIES:
            results.append(init_times(name, args.git_dir, args.repos_dir, args.init_only))
            got = results[-1]
            print(
                f"{got['repository']} ({got['files']} files): init {got['init_s']} s, "
                f"median {got['init_median_s']} s",
                flush=True,
            )
    for name in () if args.init_only else args.repo or REPOSITORIES:
        results.append(measure(name, args.git_dir, args.repos_dir, args.bm25_only))
        print(report(results[-1]), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
