"""Large repositories: how soon ``memory-tui init`` makes a big markdown corpus searchable.

    python -m bench.large_repo [--corpus argo|rfcs] [--trials 1] [--before]

Runs the real ``memory-tui init --no-hooks`` (its default: both phases in the foreground)
in a fresh git repository whose knowledge folder holds the corpus, with a cold memory and
embedding cache, and polls the keyword index (read-only SQLite, every 50 ms) while it runs:

- **first keyword result**: from the start of ``init`` until a keyword search can return a
  chunk of the corpus (the FTS5 index holds one);
- **all keyword-searchable**: until it holds every chunk of the corpus;
- **all vectors**: until ``init`` returns with every entry embedded;
- chunks/s of each phase: chunks over (all keyword-searchable − first result) for the first,
  chunks over (all vectors − all keyword-searchable) for the second;
- peak RSS of the ``init`` process (``VmHWM``, read while it runs).

``--before`` runs the code of the commit this branch started from (one-phase indexing:
``init`` returns once every chunk is embedded, and a chunk is searchable only once its
batch of 256 is embedded) from a ``git archive`` of it under ``bench/.cache``.

Corpora: ``argo`` is the Argo CD docs (455 files, ``shared/eval/markdown``); ``rfcs`` is the
``text/`` folder of rust-lang/rfcs at :data:`RFCS_COMMIT` (639 files, 9.1 MB), assembled
into ``bench/.cache`` from a local clone (``--rfcs-git``; only the commit hash is kept here).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from bench.index_corpus import CORPUS as ARGO
from bench.metrics import median

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / "bench" / ".cache"
CLI = str(Path(sys.executable).parent / "memory-tui")
RFCS_COMMIT = "354518a8c9025f40be6f730452c1bfe71a12dc22"
"""rust-lang/rfcs, 15 Aug 2026: 639 markdown files under ``text/``."""
BEFORE_COMMIT = "0d408df"
"""main when this branch started: one-phase indexing."""
POLL = 0.05


def rfcs_corpus(git_dir: Path) -> Path:
    """``text/`` of rust-lang/rfcs at :data:`RFCS_COMMIT`, extracted once into the cache."""
    target = CACHE / f"rfcs-{RFCS_COMMIT[:12]}"
    if not (target / "text").is_dir():
        target.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", f"--git-dir={git_dir}", "archive", RFCS_COMMIT, "text"],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target / "text"


def before_source() -> Path:
    """The source tree of :data:`BEFORE_COMMIT` (extracted once into the cache)."""
    return commit_source(BEFORE_COMMIT, CACHE / f"before-{BEFORE_COMMIT}")


def commit_source(commit: str, target: Path) -> Path:
    """This project's source at ``commit``, extracted into ``target`` once (kept after)."""
    if not (target / "engine").is_dir():
        target.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(REPO), "archive", commit], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def fresh_project(corpus: Path, name: str) -> Path:
    """A new git repository whose knowledge folder is a copy of ``corpus``."""
    root = CACHE / "large" / name
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    shutil.copytree(corpus, root / ".claude" / "knowledge")
    return root


def counts(fts: Path) -> tuple[int, int | None]:
    """(chunks of the corpus in the keyword index, entries waiting for a vector or None)
    right now. Discovery's entries (written by ``init``'s analysis before indexing) do not
    count: the question is when the corpus can be searched."""
    try:
        with sqlite3.connect(f"file:{fts}?mode=ro", uri=True, timeout=1) as db:
            sql = "SELECT count(*) FROM entries WHERE source = 'markdown'"
            entries = int(db.execute(sql).fetchone()[0])
            try:
                waiting = int(db.execute("SELECT count(*) FROM unembedded").fetchone()[0])
            except sqlite3.Error:
                waiting = None
            return entries, waiting
    except sqlite3.Error:
        return 0, None


def peak_rss_mb(pid: int) -> float:
    """The process's peak resident set so far (0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def run_init(root: Path, source: Path) -> dict[str, float]:
    """One ``memory-tui init`` with the code at ``source``, timed (see the docstring)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_MEMORY_")}
    env["PYTHONPATH"] = str(source)
    fts = root / ".claude" / "memory" / "fts.sqlite"
    started = time.perf_counter()
    proc = subprocess.Popen(
        [CLI, "init", "--no-hooks"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    err: list[str] = []
    reader = threading.Thread(target=lambda: err.extend(proc.stderr or []), daemon=True)
    reader.start()
    samples: list[tuple[float, int]] = []
    peak = 0.0
    while proc.poll() is None:
        peak = max(peak, peak_rss_mb(proc.pid))
        samples.append((time.perf_counter() - started, counts(fts)[0]))
        time.sleep(POLL)
    done = time.perf_counter() - started
    out = proc.stdout.read() if proc.stdout else ""
    reader.join(5)
    if proc.returncode != 0:
        raise SystemExit(f"init failed ({proc.returncode}):\n{out}\n{''.join(err)}")
    total, waiting = counts(fts)
    first = next((t for t, n in samples if n > 0), done)
    every = next((t for t, n in samples if n >= total), done)
    return {
        "chunks": total,
        "pending_after": waiting or 0,
        "first_keyword_s": first,
        "all_keyword_s": every,
        "all_vectors_s": done,
        "phase1_chunks_per_s": total / max(every - first, POLL),
        "phase2_chunks_per_s": total / max(done - every, POLL),
        "peak_rss_mb": peak,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", choices=("argo", "rfcs"), default="argo")
    parser.add_argument("--trials", type=int, default=1)
    parser.add_argument("--before", action="store_true", help="main's one-phase indexing")
    parser.add_argument(
        "--rfcs-git",
        type=Path,
        default=Path("/work/.mirror/rust-lang+rfcs/repo"),
        help="a clone (or bare git directory) of rust-lang/rfcs holding RFCS_COMMIT",
    )
    args = parser.parse_args()
    corpus = ARGO if args.corpus == "argo" else rfcs_corpus(args.rfcs_git)
    source = before_source() if args.before else REPO
    label = f"{args.corpus} {'before (one phase)' if args.before else 'after (two phases)'}"
    runs = []
    for trial in range(args.trials):
        root = fresh_project(corpus, args.corpus)
        runs.append(run_init(root, source))
        print(f"{label} trial {trial + 1}: {json.dumps(runs[-1])}", flush=True)
    keys = list(runs[0])
    summary = {k: round(median([r[k] for r in runs]), 2) for k in keys}
    print(f"{label} median of {len(runs)}: {json.dumps(summary)}")


if __name__ == "__main__":
    main()
