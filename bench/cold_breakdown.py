"""Where a cold hybrid ``search`` spends its time, phase by phase, ``before`` (a commit's
source tree) against ``after`` (this checkout), in one run, alternating.

    python -m bench.cold_breakdown [--before e05f481] [--runs 7]

Each run is a fresh process doing what ``memory-tui search QUERY --mode hybrid`` does, in
the CLI's order, through the engine's public API, with a mark between phases: our own
modules imported, ``onnxruntime`` and ``tokenizers`` imported, ``lancedb`` imported, the
model loaded (the ONNX session and the tokenizer), ``Memory.open``, the search (the store
opened, the query embedded, the nearest entries, fusion, the gate, stale flags), the
results rendered, counted as referenced, and the memory closed; then the process
exits as that version's console script does. Each phase's CPU time (the process's, all
threads) and wall time, the rest of the process's (interpreter start-up and exit) and
its whole; medians over the runs, with the load average. The memory and the bytecode
set-up are those of :mod:`bench.short_commands` (the Argo CD docs, 3,529 entries, real
model; bytecode written by a warm-up run).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench.metrics import median
from bench.short_commands import environment, prepared

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / "bench" / ".cache" / "cold-breakdown"
BEFORE = "e05f481"
"""main when session 18's ``cold`` branch started."""
QUERY = "sync waves"

PHASES = r"""
import json, sys, time
marks = [("start", time.process_time(), time.perf_counter())]
def mark(name):
    marks.append((name, time.process_time(), time.perf_counter()))
import app.cli.main, app.cli.commands, app.cli.export
from engine import Memory, render
from engine.embedding.default import default_embedder
mark("our modules imported")
import onnxruntime, tokenizers
mark("onnxruntime, tokenizers imported")
import lancedb
mark("lancedb imported")
embedder = default_embedder()
embedder.load()
mark("model loaded")
memory = Memory.open(sys.argv[1], embedder=embedder)
mark("Memory.open")
response = memory.search(sys.argv[2], mode="hybrid")
mark("search")
text = render(response.results, "text", query=sys.argv[2],
              knowledge_prefix=memory.paths.knowledge_prefix)
mark("rendered")
memory.referenced([r.entry.id for r in response.results])
mark("referenced")
memory.close()
mark("closed")
print(json.dumps([[n, 1000 * (c - pc), 1000 * (w - pw)]
                  for (n, c, w), (_, pc, pw) in zip(marks[1:], marks)]), flush=True)
if sys.argv[3] == "freeze":  # as this version's console script leaves
    import gc
    gc.freeze()
"""


def exits_frozen(source: Path) -> bool:
    """Whether the console script of the version at ``source`` sets the collector's objects
    aside before it exits (``app.cli.main.run``), as the bench's process then does."""
    return "gc.freeze()" in (source / "app" / "cli" / "main.py").read_text(encoding="utf-8")


def one_run(source: Path, root: Path, *, write_bytecode: bool = False) -> dict[str, list[float]]:
    """Phases of one cold search (name: [CPU ms, wall ms]), and the whole process's
    (``process``: interpreter start-up and exit included; CPU from ``wait4``)."""
    env = environment(source, write_bytecode=write_bytecode, cache=CACHE)
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", PHASES, str(root), QUERY, "freeze" if exits_frozen(source) else ""],
        cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    out, err = proc.stdout.read(), proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{source}: failed ({proc.returncode}): {err.decode()[-2000:]}")
    phases = {name: [cpu, w] for name, cpu, w in json.loads(out)}
    cpu = 1000 * (usage.ru_utime + usage.ru_stime)
    phases["start-up and exit"] = [
        cpu - sum(c for c, _ in phases.values()),
        1000 * wall - sum(w for _, w in phases.values()),
    ]
    phases["process"] = [cpu, 1000 * wall]
    return phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default=BEFORE, help="the commit to compare with")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    versions, roots = prepared(args.before, CACHE)
    for name, source in versions.items():  # warm-up: bytecode written, caches filled
        one_run(source, roots[name], write_bytecode=True)
    load = [os.getloadavg()[0]]
    results: dict[str, list[dict[str, list[float]]]] = {name: [] for name in versions}
    for n in range(args.runs):
        order = list(versions) if n % 2 == 0 else list(reversed(versions))
        for name in order:
            results[name].append(one_run(versions[name], roots[name]))
    load.append(os.getloadavg()[0])
    print(
        f"cold hybrid search by phase, {args.runs} runs each, alternating, medians in ms "
        f"(load {load[0]:.1f} at the start, {load[1]:.1f} at the end):"
    )
    print(f"| phase | CPU before ({args.before}) | CPU after | wall before | wall after |")
    print("|---|---|---|---|---|")
    for phase in results["after"][0]:
        cells = [
            f"{median([run[phase][column] for run in results[name]]):.0f}"
            for column in (0, 1)
            for name in versions
        ]
        print(f"| {phase} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
