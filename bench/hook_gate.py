"""``python -m bench.hook_gate``: the prompt hook's gate on the repo_qa memories, in-process.

    python -m bench.hook_gate [--memories /tmp/repoqa-mem] [--repo NAME ...] [--processes]

Builds each ``bench/repo_qa`` repository's memory once (a fresh copy at the recorded commit,
``memory-tui init --no-hooks --no-embed``: the hook reads the keyword index only, so no
vectors are needed) under ``--memories/<name>`` and keeps it there; later runs reuse it.
Then asks the hook's own selection (:func:`app.prompt_hook.entries_for`, no reference
counts written) every question of the set and every off-topic prompt: hook hit (an
injected entry from an answer file), silence on the off-topic prompts, and the time of
the selection in this process. ``--processes`` adds the latency of a fresh ``memory-tui
hook`` process per prompt (p50/p95), as Claude Code runs it. Tune on the first four sets
(typer, express, zustand, hono) and check on the other four.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.metrics import percentile
from bench.repo_qa import REPOSITORIES, load, off_topic
from bench.repo_qa.__main__ import checkout, mirror, run_hook

CLI = str(Path(sys.executable).parent / "memory-tui")


def build(name: str, memories: Path) -> Path:
    """The kept memory of set ``name`` (built on first use)."""
    root = memories / name
    if (root / ".claude" / "memory").exists():
        return root
    qs = load(name)
    checkout(qs, mirror(qs), root)
    done = subprocess.run(
        [CLI, "init", "--no-hooks", "--no-embed", "-q"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"init failed in {root}:\n{done.stderr[-2000:]}")
    return root


def evaluate(name: str, root: Path, processes: bool) -> dict[str, object]:
    """Hook hit, off-topic silence and timings for one kept memory."""
    from app.project import config_or_defaults
    from app.prompt_hook import entries_for
    from engine import Memory

    qs = load(name)
    hits, silent, seconds = [], [], []
    misses: list[dict[str, object]] = []
    spoke: list[dict[str, object]] = []
    with Memory.open(root, config=config_or_defaults(root, "hook")) as memory:
        for question in qs.questions:
            started = time.perf_counter()
            files = [r.entry.file_path for r in entries_for(memory, question.q)]
            seconds.append(time.perf_counter() - started)
            hits.append(any(f in question.files for f in files))
            if not hits[-1]:
                misses.append({"q": question.q, "want": question.files, "got": files})
        for prompt in off_topic():
            started = time.perf_counter()
            files = [r.entry.file_path for r in entries_for(memory, prompt)]
            seconds.append(time.perf_counter() - started)
            silent.append(not files)
            if files:
                spoke.append({"q": prompt, "got": files})
    figures: dict[str, object] = {
        "set": name,
        "hook_hit": round(sum(hits) / len(hits), 3),
        "silent_off_topic": round(sum(silent) / len(silent), 3),
        "in_process_p50_ms": round(1000 * statistics.median(seconds), 1),
        "in_process_p95_ms": round(1000 * percentile(seconds, 95), 1),
    }
    if processes:
        took = [run_hook(root, p, [])[0] for p in [q.q for q in qs.questions] + off_topic()]
        figures["process_p50_s"] = round(statistics.median(took), 3)
        figures["process_p95_s"] = round(percentile(took, 95), 3)
    figures["misses"] = misses
    figures["spoke_off_topic"] = spoke
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hook_gate", description=__doc__)
    parser.add_argument("--memories", type=Path, default=Path("/tmp/repoqa-mem"))
    parser.add_argument("--repo", choices=REPOSITORIES, action="append")
    parser.add_argument("--processes", action="store_true", help="also time fresh processes")
    parser.add_argument("--json", type=Path, help="write every figure and miss here")
    args = parser.parse_args(argv)
    results = []
    for name in args.repo or REPOSITORIES:
        root = build(name, args.memories)
        figures = evaluate(name, root, args.processes)
        results.append(figures)
        shown = {k: v for k, v in figures.items() if k not in ("misses", "spoke_off_topic")}
        print(json.dumps(shown), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
