"""Edit-to-searchable through ``memory-tui index`` (issue 38): from saving one knowledge
file of a 455-file folder to a keyword search finding the new text, ``before`` (a commit's
source tree) against ``after`` (this checkout), in one run.

    python -m bench.index_edit [--trials 5] [--before b69b8e9] [--served]

The memory is the one ``python -m bench.hook_commit`` builds in ``bench/.cache/hook-commit``
(the Argo CD docs, indexed with the real model), copied once per version into
``bench/.cache/index-edit/``; each version indexes its own copy (``after`` records file
stats in meta.json that ``before`` would drop). A warm-up run of each records what an
earlier run would have. Then, per trial and version (the order alternating), one paragraph
of ``faq.md`` is rewritten and

1. ``python -m app index`` (the command the git hooks and users run: text first, vectors
   after) is started at once; the bench polls the keyword index (SQLite, read-only) every
   10 ms until the new word is found (**edit → searchable**) and waits for the process to
   end (**edit → exit**, the vectors included);
2. the file is edited again and ``python -m app index --no-embed`` timed to its end, with
   its CPU time (user + system, from ``wait4``): the first phase alone, less sensitive to
   other processes on the machine than the wall times.

Both versions run as ``python -m app`` with their source tree first on ``PYTHONPATH``,
each with its own bytecode folder (``PYTHONPYCACHEPREFIX`` under the cache) that the
warm-up fills, whatever ``PYTHONDONTWRITEBYTECODE`` says: both load bytecode, as an
installation with bytecode does (a source tree extracted for ``before`` has none, and
with ``PYTHONDONTWRITEBYTECODE`` it would compile every module on every run while this
checkout's ``__pycache__`` holds some). ``--as-is`` leaves the environment's bytecode
settings alone instead.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from app.hook_client import FOLDER
from bench.hook_commit import ROOT as BUILT
from bench.hook_commit import build
from bench.large_repo import commit_source
from bench.metrics import median
from engine.search.keyword import KeywordSearcher
from engine.storage.mirror import EntryMirror
from engine.storage.paths import MemoryPaths

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / "bench" / ".cache" / "index-edit"
EDITED = Path(".claude") / "knowledge" / "faq.md"
MARKER = "\n\nIndex-edit marker: "
BEFORE = "8647b6e"
"""main when issue 38's index1s branch started (session 13)."""


def source_tree(commit: str) -> Path:
    """The source of ``commit``, extracted once into the cache."""
    return commit_source(commit, CACHE / f"src-{commit}")


def project_copy(name: str) -> Path:
    """A fresh copy of the built memory for one version."""
    target = CACHE / name
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(BUILT, target, symlinks=True)
    return target


def edit(root: Path, word: str) -> None:
    path = root / EDITED
    head = path.read_text(encoding="utf-8").split(MARKER)[0]
    path.write_text(f"{head}{MARKER}{word} appears here.\n", encoding="utf-8")


BYTECODE = True
"""Each version loads bytecode from a folder of its own (``--as-is``: False)."""


def start(
    source: Path, root: Path, *args: str, command: str = "index", stdin: int | None = None
) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_MEMORY_")}
    env["PYTHONPATH"] = str(source)
    if BYTECODE:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(CACHE / "pycache" / source.name)
    argv = [sys.executable, "-m", "app", "--project", str(root), command, *args]
    with open(CACHE / "stderr.log", "ab") as log:
        return subprocess.Popen(
            argv, cwd=source, env=env, stdin=stdin, stdout=subprocess.DEVNULL, stderr=log
        )


READY = "embedding model and vector store are ready"
"""The server's log line once its warm-up is done (app.mcp.state)."""


def serve(source: Path, root: Path) -> subprocess.Popen[bytes]:
    """A ``serve-mcp`` of ``root``, kept open on stdio, once its model and store are
    ready and its endpoint listens."""
    paths = MemoryPaths.for_root(root)
    server = start(source, root, command="serve-mcp", stdin=subprocess.PIPE)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        log = paths.log_path.read_text(encoding="utf-8") if paths.log_path.exists() else ""
        endpoint = paths.memory_dir / FOLDER / f"{server.pid}.json"
        mine = log.split(f" {server.pid} ", 1)[1] if f" {server.pid} " in log else ""
        if READY in mine and endpoint.exists():
            return server
        if server.poll() is not None:
            break
        time.sleep(0.2)
    server.kill()
    raise SystemExit(f"the server did not get ready: see {paths.log_path}")


def cpu_of(pid: int | None) -> float:
    """User + system CPU seconds of a running process so far (0 without one)."""
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


REAPED: dict[int, float] = {}
"""CPU seconds of the processes :func:`reap` has reaped, by pid."""


def reap(proc: subprocess.Popen[bytes], *, block: bool) -> float | None:
    """The CPU seconds (user + system, from ``wait4``) of ``proc`` once it has ended (None
    while it runs, unless ``block``); fails loudly if it failed."""
    pid, status, usage = os.wait4(proc.pid, 0 if block else os.WNOHANG)
    if pid == 0:
        return None
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"index failed ({proc.returncode}): see {CACHE / 'stderr.log'}")
    REAPED[proc.pid] = usage.ru_utime + usage.ru_stime
    return REAPED[proc.pid]


def reaped(proc: subprocess.Popen[bytes]) -> float:
    """The CPU seconds of a process :func:`reap` has reaped already."""
    return REAPED[proc.pid]


def finish(proc: subprocess.Popen[bytes]) -> float:
    cpu = reap(proc, block=True)
    assert cpu is not None
    return cpu


def trial(
    source: Path, root: Path, fts: KeywordSearcher, word: str, server: int | None = None
) -> tuple[float, ...]:
    """(edit → searchable, edit → exit, --no-embed wall, --no-embed CPU, the CLI's CPU of
    the whole run, the server's CPU of both runs) for one edit."""
    served_before = cpu_of(server)
    edit(root, word)
    edited = time.perf_counter()
    proc = start(source, root)
    running = True
    while not fts.search(word, 1):
        if not running or time.perf_counter() - edited > 300:
            raise SystemExit(f"{word} never became searchable")
        running = reap(proc, block=False) is None  # one more look after it ends
        time.sleep(0.01)
    searchable = time.perf_counter() - edited
    whole = finish(proc) if running else reaped(proc)
    exited = time.perf_counter() - edited
    edit(root, word + "again")
    began = time.perf_counter()
    cpu = finish(start(source, root, "--no-embed"))
    phase = time.perf_counter() - began
    if not fts.search(word + "again", 1):
        raise SystemExit(f"{word}again not searchable after --no-embed")
    return searchable, exited, phase, cpu, whole, cpu_of(server) - served_before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--before", default=BEFORE, help="the commit to compare with")
    parser.add_argument(
        "--as-is", action="store_true", help="leave the environment's bytecode settings alone"
    )
    parser.add_argument(
        "--served", action="store_true", help="add this checkout with a serve-mcp running"
    )
    args = parser.parse_args()
    global BYTECODE
    BYTECODE = not args.as_is
    build(rebuild=False)
    CACHE.mkdir(parents=True, exist_ok=True)
    versions = {"before": source_tree(args.before), "after": REPO}
    if args.served:
        versions["served"] = REPO
    roots = {name: project_copy(name) for name in versions}
    time.sleep(2.5)  # the copies' files older than a stat may be trusted (index_reads)
    servers: dict[str, subprocess.Popen[bytes]] = {}
    try:
        if args.served:
            servers["served"] = serve(REPO, roots["served"])
        results = _run(args, versions, roots, servers)
    finally:
        for server in servers.values():
            server.kill()
            server.wait()
    print(f"one-file edit, 455-file knowledge folder, median of {args.trials} trials:")
    print(
        "version          edit→searchable  edit→exit  index CPU  --no-embed  --no-embed CPU"
        "  server CPU"
    )
    for name in versions:
        c = [median([r[i] for r in results[name]]) for i in range(6)]
        label = f"{name} ({args.before})" if name == "before" else name
        print(
            f"{label:16} {c[0]:9.2f} s {c[1]:9.2f} s {c[4]:7.2f} s {c[2]:9.2f} s "
            f"{c[3]:11.2f} s {c[5]:9.2f} s"
        )
    print(
        f"load average at the end: {os.getloadavg()[0]:.1f}; bytecode: "
        f"{'each version its own' if BYTECODE else 'as the environment says'}"
    )


def _run(
    args: argparse.Namespace,
    versions: dict[str, Path],
    roots: dict[str, Path],
    servers: dict[str, subprocess.Popen[bytes]],
) -> dict[str, list[tuple[float, ...]]]:
    searchers = {}
    for name, source in versions.items():
        finish(start(source, roots[name], "--no-embed"))  # warm-up: what a last run left
        searchers[name] = KeywordSearcher(EntryMirror(MemoryPaths.for_root(roots[name]).fts_path))
    results: dict[str, list[tuple[float, ...]]] = {name: [] for name in versions}
    for n in range(args.trials):
        order = list(versions) if n % 2 == 0 else list(reversed(versions))
        for name in order:
            word = f"indexedit{n}{name}x{os.getpid()}"
            server = servers[name].pid if name in servers else None
            results[name].append(trial(versions[name], roots[name], searchers[name], word, server))
            s, e, p, c, w, sc = results[name][-1]
            print(
                f"trial {n + 1} {name:6}: searchable {s:.2f} s, exit {e:.2f} s ({w:.2f} s CPU); "
                f"--no-embed {p:.2f} s ({c:.2f} s CPU); server {sc:.2f} s CPU; "
                f"load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
    return results


if __name__ == "__main__":
    main()
