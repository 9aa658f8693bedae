"""Cold run time of the Claude Code hook and of a keyword search from the shell.

    python -m bench.hook_latency [--entries 1000]
    python -m bench.hook_latency --sets [NAME ...] [--baseline CHECKOUT]

Both run on every prompt or in pipes, in a fresh process each time, and must not
import LanceDB or the embedding stack. The memory (``bench/.cache/hook``) is filled
with entries from the Argo CD docs; keyword paths never read vectors, so a fast
deterministic embedder with the real model's dimension builds it.

``--sets`` runs the hook without a server on every question and off-topic prompt of the
``bench/repo_qa`` sets, in the memories ``python -m bench.relevance build`` made
(``--cache``): hook hit, off-topic silence, and per prompt the wall time and the CPU time
(user + sys of the hook's process) at p50 and p95, with the load average. The machine
may be shared: wall time is what a user waits, CPU time is what the hook costs.
``--baseline`` runs another checkout's code (first on the import path) alternately with
this one, prompt by prompt, so that both meet the same load. Each checkout's bytecode is
compiled first, as installing the package does; ``--as-found`` measures them as they are
(with ``PYTHONDONTWRITEBYTECODE`` set and no bytecode, every run compiles every module it
imports: bench/RESULTS.md, "Issue 50: the hook's time is its imports").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from statistics import mean

import numpy as np
import numpy.typing as npt

from bench.index_corpus import CORPUS
from bench.metrics import median, percentile
from engine.core.models import SecretPolicy
from engine.embedding.base import DIMENSION, Uncached
from engine.markdown.chunking import chunk_markdown
from engine.services.entries import NewEntry
from engine.services.memory import Memory

ROOT = Path(__file__).resolve().parent / ".cache" / "hook"
SETS = Path(__file__).resolve().parent / ".cache" / "relevance"
CLI = str(Path(sys.executable).parent / "memory-tui")


class HashEmbedder(Uncached):
    """Random-but-deterministic unit vectors: enough for paths that never read them."""

    model_id = "bench-hash"
    loaded = True

    @property
    def dimension(self) -> int:
        return DIMENSION

    def load(self) -> None:
        """Nothing to load."""

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        out = np.empty((len(texts), DIMENSION), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")
            row = np.random.default_rng(seed).standard_normal(DIMENSION)
            out[i] = row / np.linalg.norm(row)
        return out

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        return np.asarray(self.embed_documents([text])[0], dtype=np.float32)


def build(entries: int) -> None:
    """A memory of ``entries`` chunks of the Argo CD docs."""
    shutil.rmtree(ROOT, ignore_errors=True)
    (ROOT / ".git").mkdir(parents=True)
    items: list[NewEntry] = []
    for path in sorted(CORPUS.rglob("*.md")):
        for chunk in chunk_markdown(path.read_text(encoding="utf-8"), 1000, 15):
            items.append(NewEntry(chunk.content[:10_000], section_title=chunk.title))
            if len(items) == entries:
                break
        if len(items) == entries:
            break
    with Memory.open(ROOT, embedder=HashEmbedder()) as memory:
        memory.add_many(items, secret_policy=SecretPolicy.REDACT)
        print(f"memory with {memory.count()} entries at {ROOT}")


def timed(args: list[str], stdin: str | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(args, input=stdin, capture_output=True, text=True, cwd=ROOT, check=True)
    return time.perf_counter() - start, done.stdout


def run_hook(
    cmd: list[str], root: Path, prompt: str, env: dict[str, str]
) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + sys of the process) and output of one fresh
    ``memory-tui hook`` run in ``root``, as Claude Code runs it."""
    payload = json.dumps({"prompt": prompt, "cwd": str(root)})
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, input=payload, capture_output=True, text=True, cwd=root, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0 or done.stderr.strip():  # it exits 0 and is silent when it works
        raise SystemExit(f"memory-tui hook complained in {root}:\n{done.stderr[-2000:]}")
    return wall, cpu, done.stdout


def checkouts(baseline: Path | None) -> dict[str, dict[str, str]]:
    """The environment of each checkout compared: this one, and ``baseline`` when given
    (its code first on the import path), run alternately prompt by prompt so that both
    meet the same load."""
    here = str(Path(__file__).resolve().parents[1])
    runs = {"this": here} | ({"baseline": str(baseline.resolve())} if baseline else {})
    return {name: os.environ | {"PYTHONPATH": path} for name, path in runs.items()}


def compile_bytecode(env: dict[str, str]) -> None:
    """Write the bytecode of the checkout first on ``env``'s import path, as an install does."""
    code = Path(env["PYTHONPATH"])
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(code / "engine"), str(code / "app")],
        check=True,
        capture_output=True,
        env={k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"},
    )


def measure_sets(cache: Path, names: list[str], baseline: Path | None, as_found: bool) -> None:
    """Hook hit, off-topic silence and latency (wall and CPU, p50 and p95) on each
    bench/repo_qa memory built by ``python -m bench.relevance build`` in ``cache``."""
    from bench.repo_qa import injected_files, load, off_topic

    envs = checkouts(baseline)
    for env in () if as_found else envs.values():
        compile_bytecode(env)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name in names:
        qs, root = load(name), cache / name
        figures: dict[str, dict[str, list[float]]] = {
            run: {"wall": [], "cpu": [], "hit": [], "silent": []} for run in envs
        }
        prompts = [(q.q, q.files) for q in qs.questions] + [(p, None) for p in off_topic()]
        for prompt, answers in prompts:
            for run, env in envs.items():
                wall, cpu, out = run_hook([CLI, "hook"], root, prompt, env)
                got = figures[run]
                got["wall"].append(wall)
                got["cpu"].append(cpu)
                if answers is None:
                    got["silent"].append(float(not out))
                else:
                    got["hit"].append(float(any(f in answers for f in injected_files(out))))
        load_now = os.getloadavg()[0]
        for run, got in figures.items():
            print(
                f"{name:12} {run:8} hook hit {mean(got['hit']):.3f}  silent off-topic "
                f"{mean(got['silent']):.3f}  wall p50 {median(got['wall']):.3f} p95 "
                f"{percentile(got['wall'], 95):.3f} s  CPU p50 {median(got['cpu']):.3f} p95 "
                f"{percentile(got['cpu'], 95):.3f} s  (load {load_now:.2f}, "
                f"{len(got['wall'])} runs)",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--sets", nargs="*", metavar="NAME", help="bench/repo_qa sets (all)")
    parser.add_argument("--cache", type=Path, default=SETS, help="their memories (%(default)s)")
    parser.add_argument("--baseline", type=Path, help="a checkout run alternately with this one")
    parser.add_argument("--as-found", action="store_true", help="do not compile bytecode first")
    args = parser.parse_args()
    if args.sets is not None:
        from bench.repo_qa import REPOSITORIES

        measure_sets(args.cache, args.sets or list(REPOSITORIES), args.baseline, args.as_found)
        return
    build(args.entries)
    prompt = json.dumps({"prompt": "how do I configure sync waves for my application?"})
    hook = [timed([CLI, "hook"], prompt) for _ in range(5)]
    search = [timed([CLI, "search", "sync waves", "--mode", "keyword"]) for _ in range(5)]
    print(
        f"hook (cold process, {args.entries} entries): median {median([t for t, _ in hook]):.3f} s"
    )
    print(f"  printed {len(hook[0][1].splitlines())} lines of context")
    print(f"search --mode keyword (cold process): median {median([t for t, _ in search]):.3f} s")


if __name__ == "__main__":
    main()
