"""``python -m bench.hook_gate``: the prompt hook's selection on the repo_qa memories.

    python -m bench.hook_gate [--memories /tmp/repoqa-hook] [--repo NAME ...] [--served]
                              [--processes]

Builds each ``bench/repo_qa`` repository's memory once (a fresh copy at the recorded commit,
``memory-tui init --no-hooks``, vectors included) under ``--memories/<name>`` and keeps it
there; later runs reuse it. Then asks the hook's own keyword selection
(:func:`app.prompt_hook.entries_for`, no reference counts written) every question of the
set and every off-topic prompt: hook hit (an injected entry from an answer file), silence
on the off-topic prompts, and the time of the selection in this process.

``--served`` adds the selection a running ``serve-mcp`` makes for the hook
(:func:`app.prompt_hook.served_entries`: hybrid search, the model loaded and warm as in
the server). ``--processes`` adds the latency of a fresh ``memory-tui hook`` process per
prompt (p50/p95), as Claude Code runs it, with no server running; with ``--served`` also
with a real ``memory-tui serve-mcp`` of the project running (started per set, the model
warm before the first prompt), and the hit rate and silence of what those processes
printed. Tune on the first four sets (typer, express, zustand, hono) and check on the
other four.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from bench.metrics import percentile
from bench.repo_qa import REPOSITORIES, injected_files, load, off_topic
from bench.repo_qa.__main__ import checkout, mirror, run_hook

if TYPE_CHECKING:
    from engine import Memory, SearchResult

CLI = str(Path(sys.executable).parent / "memory-tui")
READY = "embedding model and vector store are ready"
"""What ``serve-mcp`` logs once its warm-up has loaded the model."""


def build(name: str, memories: Path) -> Path:
    """The kept memory of set ``name`` (built on first use)."""
    root = memories / name
    if (root / ".claude" / "memory").exists():
        return root
    qs = load(name)
    checkout(qs, mirror(qs), root)
    done = subprocess.run(
        [CLI, "init", "--no-hooks", "-q"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"init failed in {root}:\n{done.stderr[-2000:]}")
    return root


def score(
    name: str, select: Callable[[str], list[str]]
) -> tuple[dict[str, object], list[float], list[dict[str, object]], list[dict[str, object]]]:
    """Hook hit and off-topic silence of ``select`` (a prompt -> the files injected)."""
    qs = load(name)
    hits, silent, seconds = [], [], []
    misses: list[dict[str, object]] = []
    spoke: list[dict[str, object]] = []
    for question in qs.questions:
        started = time.perf_counter()
        files = select(question.q)
        seconds.append(time.perf_counter() - started)
        hits.append(any(f in question.files for f in files))
        if not hits[-1]:
            misses.append({"q": question.q, "want": question.files, "got": files})
    for prompt in off_topic():
        started = time.perf_counter()
        files = select(prompt)
        seconds.append(time.perf_counter() - started)
        silent.append(not files)
        if files:
            spoke.append({"q": prompt, "got": files})
    figures: dict[str, object] = {
        "hook_hit": round(sum(hits) / len(hits), 3),
        "silent_off_topic": round(sum(silent) / len(silent), 3),
    }
    return figures, seconds, misses, spoke


def evaluate(name: str, root: Path, served: bool, processes: bool) -> dict[str, object]:
    """Hook hit, off-topic silence and timings for one kept memory."""
    from app.project import config_or_defaults
    from app.prompt_hook import entries_for, served_entries
    from engine import Memory

    figures: dict[str, object] = {"set": name}
    details: dict[str, object] = {}
    ways: list[tuple[str, Callable[[Memory, str], list[SearchResult]]]] = [("keyword", entries_for)]
    if served:
        ways.append(("served", served_entries))
    # As the server opens it, and warm.
    config = config_or_defaults(root, "serve-mcp")
    with Memory.open(root, config=config) as memory:
        if served:
            memory.warm_up(mode="hybrid")
        for way, select in ways:
            found, seconds, misses, spoke = score(
                name, lambda p, s=select: [r.entry.file_path for r in s(memory, p)]
            )
            figures.update({f"{way}_{k}": v for k, v in found.items()})
            figures[f"{way}_in_process_p50_ms"] = round(1000 * statistics.median(seconds), 1)
            figures[f"{way}_in_process_p95_ms"] = round(1000 * percentile(seconds, 95), 1)
            details[f"{way}_misses"] = misses
            details[f"{way}_spoke_off_topic"] = spoke
    if processes:
        for way in ("keyword", "served") if served else ("keyword",):
            took: list[float] = []
            complaints: list[str] = []

            def run(
                prompt: str, took: list[float] = took, complaints: list[str] = complaints
            ) -> list[str]:
                seconds, out = run_hook(root, prompt, complaints)
                took.append(seconds)
                return injected_files(out)

            with serving(root) if way == "served" else contextlib.nullcontext():
                found, _, misses, spoke = score(name, run)
            figures.update({f"{way}_process_{k}": v for k, v in found.items()})
            figures[f"{way}_process_p50_s"] = round(statistics.median(took), 3)
            figures[f"{way}_process_p95_s"] = round(percentile(took, 95), 3)
            figures[f"{way}_process_stderr"] = len(complaints)
            details[f"{way}_process_misses"] = misses
    return {**figures, **details}


@contextlib.contextmanager
def serving(root: Path, timeout: float = 600) -> Iterator[None]:
    """A real ``memory-tui serve-mcp`` of the project at ``root`` (stdio, as Claude Code
    starts it; no client talks to it) while the block runs, once its model is warm."""
    log = root / ".claude" / "memory" / "memory-tui.log"
    start = log.stat().st_size if log.exists() else 0
    server = subprocess.Popen(
        [CLI, "serve-mcp", "--project", str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + timeout
        while True:
            if server.poll() is not None:
                raise SystemExit(f"serve-mcp stopped in {root} (exit {server.returncode})")
            text = log.read_bytes()[start:].decode("utf-8", "replace") if log.exists() else ""
            if READY in text:
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"serve-mcp in {root} did not warm up in {timeout:.0f} s")
            time.sleep(0.2)
        yield
    finally:
        assert server.stdin is not None
        server.stdin.close()  # the client went away: the server stops
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.terminate()
            server.wait(30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hook_gate", description=__doc__)
    parser.add_argument("--memories", type=Path, default=Path("/tmp/repoqa-hook"))
    parser.add_argument("--repo", choices=REPOSITORIES, action="append")
    parser.add_argument(
        "--served", action="store_true", help="also the selection of a running serve-mcp"
    )
    parser.add_argument("--processes", action="store_true", help="also time fresh processes")
    parser.add_argument("--json", type=Path, help="write every figure and miss here")
    args = parser.parse_args(argv)
    results = []
    for name in args.repo or REPOSITORIES:
        root = build(name, args.memories)
        figures = evaluate(name, root, args.served, args.processes)
        results.append(figures)
        shown = {k: v for k, v in figures.items() if not isinstance(v, list)}
        print(json.dumps(shown), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
