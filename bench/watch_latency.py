"""Watch-to-searchable latency: from saving a knowledge file to a keyword search finding it
(and, for an edit, to the changed chunk's vector: two-phase indexing embeds it after).

    python -m bench.watch_latency [--trials 5]

Runs ``memory-tui watch`` (the real model) on the 455-file Argo CD memory that
``python -m bench.hook_commit`` builds in ``bench/.cache/hook-commit``, then, per trial, edits
one file, creates a new one and deletes it, timing each until the index shows the change.
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from bench.hook_commit import ROOT, build
from bench.metrics import median
from engine.search.keyword import KeywordSearcher
from engine.storage.mirror import EntryMirror
from engine.storage.paths import MemoryPaths

CLI = str(Path(sys.executable).parent / "memory-tui")
EDITED = ROOT / ".claude" / "knowledge" / "faq.md"
CREATED = ROOT / ".claude" / "knowledge" / "bench-watch-note.md"


def until(condition: object, timeout: float = 60.0) -> float:
    """Seconds until ``condition()`` holds."""
    start = time.perf_counter()
    while not condition():  # type: ignore[operator]
        if time.perf_counter() - start > timeout:
            raise TimeoutError("the watcher did not pick the change up")
        time.sleep(0.01)
    return time.perf_counter() - start


def waits_for_vector(fts_path: Path, entry_id: str) -> bool:
    """Whether the entry still waits for its vector (two-phase indexing); code without the
    ``unembedded`` table embeds before the keyword index sees the chunk: never waits."""
    try:
        with sqlite3.connect(f"file:{fts_path}?mode=ro", uri=True, timeout=1) as db:
            row = db.execute("SELECT 1 FROM unembedded WHERE id = ?", (entry_id,)).fetchone()
    except sqlite3.Error:
        return False
    return row is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument(
        "--before", action="store_true", help="run the watcher of main's one-phase indexing"
    )
    args = parser.parse_args()
    build(rebuild=False)
    fts_path = MemoryPaths.for_root(ROOT).fts_path
    fts = KeywordSearcher(EntryMirror(fts_path))
    env = dict(os.environ)
    if args.before:
        from bench.large_repo import before_source

        env["PYTHONPATH"] = str(before_source())
    proc = subprocess.Popen(
        [CLI, "watch"],
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        # A shell starts background jobs with SIGINT ignored; Ctrl-C must reach the watcher.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(proc.stderr or []), daemon=True).start()
    started = time.perf_counter()
    until(lambda: any("watching" in line for line in lines), timeout=300)
    print(f"watch ready after {time.perf_counter() - started:.1f} s (model, store, catch-up)")
    original = EDITED.read_text(encoding="utf-8")
    edits, vectors, creates, deletes = [], [], [], []
    try:
        for trial in range(args.trials):
            word = f"watchedit{trial}x{os.getpid()}"
            EDITED.write_text(f"{original}\n\nWatch marker: {word} here.\n", encoding="utf-8")
            written = time.perf_counter()
            edits.append(until(lambda w=word: bool(fts.search(w, 1))))  # type: ignore[misc]
            changed = fts.search(word, 1)[0].entry.id
            until(lambda i=changed: not waits_for_vector(fts_path, i))  # type: ignore[misc]
            vectors.append(time.perf_counter() - written)
            word = f"watchnew{trial}x{os.getpid()}"
            CREATED.write_text(f"# Note\n\nThe {word} note.\n", encoding="utf-8")
            creates.append(until(lambda w=word: bool(fts.search(w, 1))))  # type: ignore[misc]
            CREATED.unlink()
            deletes.append(until(lambda w=word: not fts.search(w, 1)))  # type: ignore[misc]
            print(
                f"trial {trial + 1}: edit {edits[-1]:.2f} s (vector {vectors[-1]:.2f} s), "
                f"create {creates[-1]:.2f} s, "
                f"delete {deletes[-1]:.2f} s",
                flush=True,
            )
            time.sleep(0.5)
    finally:
        EDITED.write_text(original, encoding="utf-8")
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        code = proc.wait(60)
    print(f"watch-to-searchable, {args.trials} trials (median, debounce 200 ms included):")
    print(f"  edit one file:   {median(edits):.2f} s (keyword)")
    print(f"  … its vector:    {median(vectors):.2f} s")
    print(f"  create a file:   {median(creates):.2f} s")
    print(f"  delete a file:   {median(deletes):.2f} s")
    print(f"watch exited with {code} on Ctrl-C; {sum('Traceback' in x for x in lines)} tracebacks")


if __name__ == "__main__":
    main()
