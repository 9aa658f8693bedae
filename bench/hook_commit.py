"""Time the git hook adds to a commit that changes one knowledge file, and how soon after
the commit the new text is searchable.

    python -m bench.hook_commit [--trials 5] [--rebuild]

The Argo CD docs (455 markdown files) are the knowledge folder of a git repository in
``bench/.cache/hook-commit``, indexed once with the real model (kept between runs). Each
trial edits one paragraph of one file and times ``git commit`` three ways: without the hook,
with the default hook (re-indexing in a background process) and with ``hooks install
--foreground`` (re-indexing inside the commit). For the background hook it also times, from
the end of the commit, until a keyword search finds the new text.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench.index_corpus import CORPUS
from bench.metrics import median
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.storage.mirror import EntryMirror
from engine.storage.paths import MemoryPaths

ROOT = Path(__file__).resolve().parent / ".cache" / "hook-commit"
CLI = str(Path(sys.executable).parent / "memory-tui")
EDITED = ".claude/knowledge/faq.md"


def git(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return subprocess.run(
        ["git", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )


def build(rebuild: bool) -> None:
    """The repository with the indexed corpus (built once)."""
    if rebuild:
        shutil.rmtree(ROOT, ignore_errors=True)
    if (ROOT / ".claude" / "memory" / "meta.json").exists():
        return
    shutil.rmtree(ROOT, ignore_errors=True)
    ROOT.mkdir(parents=True)
    git("init", "-q", "-b", "main")
    git("config", "user.name", "Bench")
    git("config", "user.email", "bench@example.com")
    shutil.copytree(CORPUS, ROOT / ".claude" / "knowledge")
    (ROOT / ".gitignore").write_text(".claude/memory/\n", encoding="utf-8")
    started = time.perf_counter()
    with Memory.open(ROOT) as memory:
        report = Indexer(memory).run()
        print(
            f"built: {report.files_total} files, {memory.count()} entries, "
            f"{time.perf_counter() - started:.0f} s",
            flush=True,
        )
    git("add", "-A")
    git("commit", "-q", "-m", "corpus")


def hooks(*args: str) -> None:
    subprocess.run([CLI, "hooks", *args], cwd=ROOT, capture_output=True, check=True)


def edit(word: str) -> None:
    path = ROOT / EDITED
    text = path.read_text(encoding="utf-8")
    marker = "\n\nBenchmark marker: "
    head = text.split(marker)[0]
    path.write_text(f"{head}{marker}{word} appears here.\n", encoding="utf-8")
    git("add", EDITED)


def timed_commit(message: str) -> float:
    start = time.perf_counter()
    git("commit", "-q", "-m", message)
    return time.perf_counter() - start


def searchable(word: str, fts: EntryMirror) -> bool:
    from engine.search.keyword import KeywordSearcher

    return bool(KeywordSearcher(fts).search(word, 1))


def wait_idle(previous: str, timeout: float = 120.0) -> None:
    """Wait until the background re-index recorded a run newer than ``previous``."""
    state = MemoryPaths.for_root(ROOT).memory_dir / "hooks-state.json"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if state.exists() and state.read_text(encoding="utf-8") != previous:
            return
        time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--rebuild", action="store_true", help="re-index the corpus from scratch")
    args = parser.parse_args()
    build(args.rebuild)
    fts = EntryMirror(MemoryPaths.for_root(ROOT).fts_path)
    state = MemoryPaths.for_root(ROOT).memory_dir / "hooks-state.json"
    plain, background, foreground, visible = [], [], [], []
    for trial in range(args.trials):
        hooks("uninstall")
        edit(f"plainword{trial}x{os.getpid()}")
        plain.append(timed_commit("no hook"))

        hooks("install")
        word = f"backgroundword{trial}x{os.getpid()}"
        edit(word)
        before = state.read_text(encoding="utf-8") if state.exists() else ""
        background.append(timed_commit("background hook"))
        start = time.perf_counter()
        while not searchable(word, fts) and time.perf_counter() - start < 120:
            time.sleep(0.02)
        visible.append(time.perf_counter() - start)
        wait_idle(before)

        hooks("install", "--foreground")
        word = f"foregroundword{trial}x{os.getpid()}"
        edit(word)
        foreground.append(timed_commit("foreground hook"))
        assert searchable(word, fts), "foreground hook did not index the edit"
        print(
            f"trial {trial + 1}: no hook {plain[-1]:.3f} s, background hook "
            f"{background[-1]:.3f} s (searchable {visible[-1]:.2f} s later), "
            f"foreground hook {foreground[-1]:.3f} s",
            flush=True,
        )
    hooks("install")
    base = median(plain)
    print(f"git commit, one knowledge file changed, {args.trials} trials (median):")
    bg, fg = median(background), median(foreground)
    print(f"  without the hook:            {base:.3f} s")
    print(f"  background hook (default):   {bg:.3f} s  (+{bg - base:.3f} s)")
    print(f"    new text searchable after: {median(visible):.2f} s")
    print(f"  foreground hook:             {fg:.3f} s  (+{fg - base:.3f} s)")


if __name__ == "__main__":
    main()
