"""A cold ``memory-tui search --mode hybrid`` with a ``serve-mcp`` of the project running
(``served``: the CLI asks it, :mod:`app.served`) against none (``alone``), this checkout
both, in one run, alternating: wall time (median, p95), the CLI process's CPU (user +
system, from ``wait4``), the server's CPU for the same searches (from ``/proc``), whether
the CLI imported LanceDB (``python -X importtime``), and whether both print the same
results.

    python -m bench.served_search [--runs 9]

The memory is the one ``python -m bench.hook_commit`` builds (``bench/.cache/hook-commit``:
the Argo CD docs, 3,529 entries, indexed with the real model), copied once per version;
the server is started as Claude Code starts it (a subprocess whose stdin stays open) and
measured once its log says the model and store are ready. Commands run as in
:mod:`bench.short_commands` (their own bytecode folder, filled by a warm-up run).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from bench.hook_commit import ROOT as BUILT
from bench.hook_commit import build
from bench.index_edit import cpu_of, serve
from bench.metrics import median, percentile
from bench.short_commands import environment, imports_lancedb, run

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / "bench" / ".cache" / "served-search"
QUERY = ["search", "sync waves", "--mode", "hybrid"]


def results(root: Path) -> list[tuple[str, float]]:
    """(id, score) of the search's JSON results."""
    argv = [sys.executable, "-m", "app", "--project", str(root), *QUERY, "--json"]
    env = environment(REPO, write_bytecode=False)
    done = subprocess.run(argv, cwd=root, env=env, capture_output=True, check=True)
    return [(r["id"], r["score"]) for r in json.loads(done.stdout)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    build(rebuild=False)
    roots = {}
    for name in ("alone", "served"):
        roots[name] = CACHE / name
        shutil.rmtree(roots[name], ignore_errors=True)
        shutil.copytree(BUILT, roots[name], symlinks=True)
    server = serve(REPO, roots["served"])
    try:
        for name in roots:  # warm-up: bytecode written, caches filled
            run(REPO, roots[name], QUERY, write_bytecode=True)
        walls: dict[str, list[float]] = {name: [] for name in roots}
        cpus: dict[str, list[float]] = {name: [] for name in roots}
        served_cpu = []
        for n in range(args.runs):
            for name in list(roots) if n % 2 == 0 else reversed(list(roots)):
                before = cpu_of(server.pid)
                wall, cpu, _ = run(REPO, roots[name], QUERY)
                if name == "served":
                    served_cpu.append(cpu_of(server.pid) - before)
                walls[name].append(wall)
                cpus[name].append(cpu)
            print(f"run {n + 1}: load {os.getloadavg()[0]:.1f}", file=sys.stderr, flush=True)
        same = results(roots["alone"]) == results(roots["served"])
        lance = {name: imports_lancedb(REPO, roots[name], QUERY) for name in roots}
    finally:
        server.kill()
        server.wait()
    print(f"cold `{' '.join(QUERY)}`, {args.runs} runs each, alternating:")
    print("| version | wall median | wall p95 | CLI CPU median | server CPU median | LanceDB |")
    print("|---|---|---|---|---|---|")
    for name in roots:
        w, c = walls[name], cpus[name]
        server_cpu = f"{median(served_cpu):.3f} s" if name == "served" else "(none runs)"
        print(
            f"| {name} | {median(w):.3f} s | {percentile(w, 95):.3f} s | {median(c):.3f} s | "
            f"{server_cpu} | {'yes' if lance[name] else 'no'} |"
        )
    print(f"same results (ids and scores, --json): {'yes' if same else 'NO'}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
