"""Short commands cold, ``before`` (a commit's source tree) against ``after`` (this
checkout), in one run, alternating: ``import lancedb`` as each version imports it, the
prompt hook with no server, keyword and hybrid ``search``, ``list``, ``status`` and
``doctor``; wall time (median, p95), CPU (user + system, from ``wait4``) and whether the
command imported LanceDB (``python -X importtime``).

    python -m bench.short_commands [--before 2c4e4fb] [--runs 7] [--hook-runs 20] [--only CASE…]

The memory is the one ``python -m bench.hook_commit`` builds (``bench/.cache/hook-commit``:
the Argo CD docs, 3,529 entries, indexed with the real model), copied once per version. Each version
runs as ``python -m app`` with its source tree first on ``PYTHONPATH`` and its own
bytecode folder (``PYTHONPYCACHEPREFIX``), filled by a warm-up run with bytecode writing
allowed: both load bytecode, as an installation compiled at install does.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench.hook_commit import ROOT as BUILT
from bench.hook_commit import build
from bench.large_repo import commit_source
from bench.metrics import median, percentile

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / "bench" / ".cache" / "short-commands"
BEFORE = "2c4e4fb"
"""main when issue 49's nopatch branch started (session 16)."""
PROMPT = json.dumps({"prompt": "how do I configure sync waves for my application?"})
PATCHED_IMPORT = "from engine.storage.lancedb_import import lancedb; lancedb()"
"""How a version with ``engine/storage/lancedb_import.py`` (2c4e4fb) imports LanceDB:
through its patches; later ones ``import lancedb``."""


def import_lancedb(source: Path) -> str:
    """The statement with which the version at ``source`` imports LanceDB."""
    patched = (source / "engine" / "storage" / "lancedb_import.py").is_file()
    return PATCHED_IMPORT if patched else "import lancedb"


COMMANDS: dict[str, list[str]] = {
    "hook (no server)": ["hook"],
    "search --mode keyword": ["search", "sync waves", "--mode", "keyword"],
    "search --mode hybrid": ["search", "sync waves", "--mode", "hybrid"],
    "list": ["list"],
    "status": ["status"],
    "doctor": ["doctor"],
}


def environment(source: Path, *, write_bytecode: bool, cache: Path = CACHE) -> dict[str, str]:
    """A cold process's environment: ``source`` first on the path, its own bytecode folder
    under ``cache``, bytecode written only when ``write_bytecode`` (the warm-up)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_MEMORY_")}
    env["PYTHONPATH"] = str(source)
    env["PYTHONPYCACHEPREFIX"] = str(cache / "pycache" / source.name)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not write_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def run(
    source: Path, root: Path, args: list[str], *, python_args: tuple[str, ...] = (),
    write_bytecode: bool = False,
) -> tuple[float, float, str]:  # fmt: skip
    """(wall s, CPU s, stderr) of one command of the version at ``source``."""
    if args[:1] == ["-c"]:
        command = [sys.executable, *python_args, *args]
    else:
        command = [sys.executable, *python_args, "-m", "app", "--project", str(root), *args]
    if args == ["hook"]:
        command = [sys.executable, *python_args, "-m", "app", "hook"]  # (the hook's own argv)
    env = environment(source, write_bytecode=write_bytecode)
    started = time.perf_counter()
    proc = subprocess.Popen(
        command, cwd=root, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stderr is not None
    proc.stdin.write(PROMPT.encode() if args == ["hook"] else b"")
    proc.stdin.close()
    err = proc.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    proc.returncode = code
    if code not in (0, 1):  # (doctor says 1 for a warning)
        raise SystemExit(f"{command} failed ({code}): {err[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, err


def imports_lancedb(source: Path, root: Path, args: list[str]) -> bool:
    _, _, err = run(source, root, args, python_args=("-X", "importtime"))
    return any(line.rstrip().endswith("| lancedb") for line in err.splitlines())


def prepared(before: str, cache: Path) -> tuple[dict[str, Path], dict[str, Path]]:
    """The two versions' source trees (``before``: that commit's, exported under
    ``cache``; ``after``: this checkout) and a fresh copy of the bench's memory for each,
    under ``cache``."""
    build(rebuild=False)
    versions = {"before": commit_source(before, cache / f"src-{before}"), "after": REPO}
    roots = {}
    for name in versions:
        roots[name] = cache / name
        shutil.rmtree(roots[name], ignore_errors=True)
        shutil.copytree(BUILT, roots[name], symlinks=True)
    return versions, roots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default=BEFORE, help="the commit to compare with")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--hook-runs", type=int, default=20)
    parser.add_argument(
        "--only", nargs="+", metavar="CASE", help="only these cases, e.g. 'search --mode hybrid'"
    )
    args = parser.parse_args()
    versions, roots = prepared(args.before, CACHE)
    cases: dict[str, list[str] | None] = {"import lancedb": None, **COMMANDS}
    if args.only:
        unknown = set(args.only) - set(cases)
        if unknown:
            parser.error(f"unknown cases {sorted(unknown)}; the cases: {list(cases)}")
        cases = {case: argv for case, argv in cases.items() if case in args.only}
    load = os.getloadavg()[0]
    for name, source in versions.items():  # warm-up: bytecode written, caches filled
        run(source, roots[name], ["-c", import_lancedb(source)], write_bytecode=True)
        for warm in (argv for argv in cases.values() if argv is not None):
            run(source, roots[name], warm, write_bytecode=True)
    walls: dict[tuple[str, str], list[float]] = {}
    cpus: dict[tuple[str, str], list[float]] = {}
    for case, command in cases.items():
        runs = args.hook_runs if case.startswith("hook") else args.runs
        for n in range(runs):
            order = list(versions) if n % 2 == 0 else list(reversed(versions))
            for name in order:
                argv = command or ["-c", import_lancedb(versions[name])]
                wall, cpu, _ = run(versions[name], roots[name], argv)
                walls.setdefault((case, name), []).append(wall)
                cpus.setdefault((case, name), []).append(cpu)
        print(f"{case}: done", file=sys.stderr, flush=True)
    print(f"cold commands, {args.runs} runs each ({args.hook_runs} for the hook), alternating:")
    print("| command | version | wall median | wall p95 | CPU median | imports LanceDB |")
    print("|---|---|---|---|---|---|")
    for case, command in cases.items():
        for name in versions:
            w, c = walls[(case, name)], cpus[(case, name)]
            argv = command or ["-c", import_lancedb(versions[name])]
            lance = "yes" if imports_lancedb(versions[name], roots[name], argv) else "no"
            label = f"before ({args.before})" if name == "before" else "after"
            print(
                f"| {case} | {label} | {median(w):.3f} s | {percentile(w, 95):.3f} s | "
                f"{median(c):.3f} s | {lance} |"
            )
    print(f"load average at the start: {load:.1f}, at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
