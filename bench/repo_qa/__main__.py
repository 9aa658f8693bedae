"""``python -m bench.repo_qa``: init a fresh copy of each repository, ask its questions.

For each repository: ``memory-tui init`` (the real entry point, the real model) on a fresh
copy at the recorded commit, timed; hit@5 and MRR@10 at file level per search mode; the
hook's hit rate on the same questions and its silence on off-topic prompts; the share of
stored entries that come from release notes, examples, tests, vendored or generated code;
and beside them a plain BM25 (``bm25s``) over 60-line windows of the repository's files.

The repository comes from ``--git-dir`` (a bare clone holding the commit), by default the
tool library's mirror ``/work/.mirror/<owner>+<name>/repo``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.repo_qa import (
    HIT_K,
    REPOSITORIES,
    QuestionSet,
    hit_at,
    injected_files,
    is_noise,
    load,
    off_topic,
    reciprocal_rank,
)

MODES = ("keyword", "vector", "hybrid")
WINDOW = 60


def checkout(qs: QuestionSet, git_dir: Path, into: Path) -> Path:
    """A fresh copy of the repository at the recorded commit, as a new git repository."""
    into.mkdir(parents=True)
    archive = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", qs.commit], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    subprocess.run(["git", "init", "-q", str(into)], check=True)
    return into


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
    from app.prompt_hook import prompt_context
    from engine import Memory

    figures: dict[str, object] = {}
    with Memory.open(root) as memory:
        for mode in MODES:
            hits, rr = [], []
            for question in qs.questions:
                results = memory.search(question.q, mode=mode, limit=10).results
                files = [r.entry.file_path for r in results]
                hits.append(hit_at(files, question.files))
                rr.append(reciprocal_rank(files, question.files))
            figures[f"{mode}_hit@{HIT_K}"] = sum(hits) / len(hits)
            figures[f"{mode}_mrr"] = sum(rr) / len(rr)
        entries = memory.list(limit=1_000_000)
    hook = []
    for question in qs.questions:
        out = prompt_context(json.dumps({"prompt": question.q, "cwd": str(root)}), root)
        hook.append(float(any(f in question.files for f in injected_files(out))))
    silent = [
        not prompt_context(json.dumps({"prompt": p, "cwd": str(root)}), root) for p in off_topic()
    ]
    figures["hook_hit"] = sum(hook) / len(hook)
    figures["hook_silent_off_topic"] = sum(silent) / len(silent)
    figures["entries"] = len(entries)
    figures["noise_share"] = sum(is_noise(e.file_path) for e in entries) / max(1, len(entries))
    return figures


def bm25_baseline(qs: QuestionSet, root: Path) -> dict[str, float]:
    """Plain BM25 over 60-line windows of every file matching the set's globs."""
    import bm25s

    windows, owners = [], []
    for pattern in qs.source_globs:
        for path in sorted(root.rglob(pattern)):
            rel = path.relative_to(root).as_posix()
            if any(part.startswith(".") or part == "node_modules" for part in rel.split("/")):
                continue
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            for start in range(0, max(1, len(lines)), WINDOW):
                windows.append(f"{rel}\n" + "\n".join(lines[start : start + WINDOW]))
                owners.append(rel)
    retriever = bm25s.BM25()
    retriever.index(
        bm25s.tokenize(windows, stopwords="en", show_progress=False), show_progress=False
    )
    hits, rr = [], []
    for question in qs.questions:
        tokens = bm25s.tokenize([question.q], stopwords="en", show_progress=False)
        ids, _ = retriever.retrieve(tokens, k=min(10, len(windows)), show_progress=False)
        files = [owners[i] for i in ids[0]]
        hits.append(hit_at(files, question.files))
        rr.append(reciprocal_rank(files, question.files))
    return {f"bm25_hit@{HIT_K}": sum(hits) / len(hits), "bm25_mrr": sum(rr) / len(rr)}


def measure(name: str, git_dir: Path | None) -> dict[str, object]:
    """Every figure for one repository."""
    qs = load(name)
    owner, _, repo = qs.repo.partition("/")
    source = git_dir or Path(f"/work/.mirror/{owner}+{repo}/repo")
    with tempfile.TemporaryDirectory(prefix=f"repo-qa-{name}-") as tmp:
        root = checkout(qs, source, Path(tmp) / name)
        seconds = run_init(root)
        figures: dict[str, object] = {"repository": qs.repo, "commit": qs.commit[:12]}
        figures["questions"] = len(qs.questions)
        figures["init_s"] = round(seconds, 1)
        figures |= evaluate(qs, root)
        figures |= bm25_baseline(qs, root)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.repo_qa", description=__doc__)
    parser.add_argument("--repo", choices=REPOSITORIES, action="append")
    parser.add_argument("--git-dir", type=Path, help="bare clone holding the commit")
    parser.add_argument("--json", type=Path, help="write every figure here")
    args = parser.parse_args(argv)
    results = [measure(name, args.git_dir) for name in (args.repo or REPOSITORIES)]
    for figures in results:
        print(f"\n{figures['repository']} @ {figures['commit']} ({figures['questions']} questions)")
        for key, value in figures.items():
            if key not in ("repository", "commit", "questions"):
                print(
                    f"  {key:24} {value:.3f}" if isinstance(value, float) else f"  {key:24} {value}"
                )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
