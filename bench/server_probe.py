"""A ``memory-tui`` command run under the bench's own probes, from outside the product.

    python -m bench.server_probe [--stacks FILE] [--memory DIR] -- serve-mcp --http ...

Runs the command in this process (``app.cli.main.main``) with, beside it:

* ``--stacks FILE``: a sampling profiler, a thread that every :data:`INTERVAL` seconds
  reads every other thread's stack (:func:`sys._current_frames`) and, for a thread inside
  an add (a frame of ``engine/services/adding.py``), counts the sample under the part of
  the write its innermost frame is in (:data:`PARTS`); the counts go to ``FILE`` as JSON
  every second. A sample in the store is counted under the store call the add is in
  (``store: add``, ``store: set_reference_counts``...: the outermost frame of
  ``record_store.py``). No code of the product is timed or changed: a sampled share of
  the adds' time, not a per-add timing (the product had ``write_profile`` until issue 49).
* ``--memory DIR``: the memory sampler ``bench.http_load --memory-profile`` reads: every
  :data:`MEMORY_SECONDS`, one JSON line of the resident size, Arrow's memory pool and the
  Python allocations :mod:`tracemalloc` traced (``samples.jsonl``), and a snapshot
  (``snapshot-<n>.dump``). Tracing slows the process.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from types import FrameType

INTERVAL = 0.005
"""Seconds between two stack samples."""
MEMORY_SECONDS = 10.0
"""Seconds between two memory samples."""
ADD = os.path.join("engine", "services", "adding.py")
"""A thread with a frame of this file is inside an add."""
PARTS = (
    ("lock wait", (os.path.join("engine", "storage", "locking.py"),)),
    ("batch wait", (os.path.join("engine", "services", "add_batch.py"),)),
    ("embed", (os.path.join("engine", "embedding") + os.sep,)),
    ("store", (os.path.join("engine", "storage", "record_store.py"), f"{os.sep}lancedb{os.sep}")),
    ("mirror", (os.path.join("engine", "storage", "mirror"),)),
    ("near duplicate", (os.path.join("engine", "services", "near_duplicates.py"),)),
    ("content checks", (os.path.join("engine", "guards") + os.sep, "content.py")),
)
"""The part of an add a sample counts for: the first whose file fragment the innermost
frame's file holds, walking out from the innermost frame; ``other`` when none does."""


STORE = os.path.join("engine", "storage", "record_store.py")
"""A sample in the store is named after the outermost frame of this file (the store call)."""


def part_of(frame: object) -> str | None:
    """The part of an add ``frame`` (a thread's innermost frame) is in; None outside an add.

    The walk stops at anything that is not a frame: the sampled thread runs on while this
    one walks its stack (the interpreter lock passes between two bytecodes of the walk),
    and in Python 3.11 the ``f_back`` of a frame that has just returned can then be some
    other object (a ``RecordStore`` ended the run at issue 49); such a sample is dropped.
    """
    frames: list[tuple[str, str]] = []
    while frame is not None:
        if not isinstance(frame, FrameType):
            return None
        frames.append((frame.f_code.co_filename, frame.f_code.co_name))
        frame = frame.f_back
    files = [file for file, _ in frames]
    if not any(f.endswith(ADD) for f in files):
        return None
    for file in files:
        for part, fragments in PARTS:
            if any(fragment in file for fragment in fragments):
                return store_call(frames) if part == "store" else part
    return "other"


def store_call(frames: list[tuple[str, str]]) -> str:
    """``store: <method>``, the outermost :class:`RecordStore` method of the stack
    (innermost first); ``store`` when LanceDB was called from elsewhere."""
    calls = [name for file, name in frames if file.endswith(STORE)]
    return f"store: {calls[-1]}" if calls else "store"


def sample_stacks(out: Path, stop: threading.Event) -> None:
    """Count add samples by part until ``stop``, writing the counts to ``out`` every
    second (``serve-mcp`` leaves with ``os._exit``: no clean-up of this process runs)."""
    counts: Counter[str] = Counter()
    me = threading.get_ident()
    written = time.monotonic()
    while not stop.wait(INTERVAL):
        for ident, frame in sys._current_frames().items():
            try:
                part = part_of(frame) if ident != me else None
            except (AttributeError, ValueError):  # a frame torn down mid-walk (see part_of)
                part = None
            if part is not None:
                counts[part] += 1
        if time.monotonic() - written >= 1.0 or stop.is_set():
            temporary = out.with_suffix(".tmp")
            temporary.write_text(json.dumps({"interval": INTERVAL, "samples": dict(counts)}))
            temporary.replace(out)
            written = time.monotonic()


def sample_memory(folder: Path, stop: threading.Event) -> None:
    """Memory samples and tracemalloc snapshots into ``folder`` until ``stop``."""
    import tracemalloc

    import pyarrow

    folder.mkdir(parents=True, exist_ok=True)
    tracemalloc.start(int(os.environ.get("MEMORY_TUI_MEMORY_FRAMES", "1")))
    n = 0
    while True:
        started = time.monotonic()
        traced, _ = tracemalloc.get_traced_memory()
        line = {
            "n": n,
            "time": time.time(),
            "rss_mib": resident_mib(),
            "arrow_mib": pyarrow.total_allocated_bytes() / 2**20,
            "traced_mib": traced / 2**20,
            "threads": threading.active_count(),
        }
        tracemalloc.take_snapshot().dump(str(folder / f"snapshot-{n}.dump"))
        with (folder / "samples.jsonl").open("a", encoding="utf-8") as file:
            file.write(json.dumps(line) + "\n")
        n += 1
        if stop.wait(max(0.0, MEMORY_SECONDS - (time.monotonic() - started))):
            tracemalloc.stop()
            return


def resident_mib() -> float:
    """This process's resident size in MiB (``nan`` where ``/proc`` is not there)."""
    try:
        status = Path("/proc/self/status").read_text(encoding="utf-8")
    except OSError:
        return float("nan")
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stacks", type=Path, help="write the adds' sampled parts here")
    parser.add_argument("--memory", type=Path, help="write memory samples into this folder")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- and memory-tui's arguments")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    stop = threading.Event()
    threads = []
    if args.stacks:
        threads.append(threading.Thread(target=sample_stacks, args=(args.stacks, stop)))
    if args.memory:
        threads.append(threading.Thread(target=sample_memory, args=(args.memory, stop)))
    for thread in threads:
        thread.daemon = True
        thread.start()
    from app.cli.main import main as memory_tui

    try:
        return memory_tui(command)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)


if __name__ == "__main__":
    raise SystemExit(main())
