"""The terminal app as a user runs it: in tmux, timed from outside by reading the screen.

    python -m bench.tui_tmux [--entries 10000] [--query "vitamin d deficiency"]

Starts ``memory-tui`` in a detached tmux session (160×48) on a synthetic memory
(:mod:`bench.synthetic`) and polls ``tmux capture-pane`` every 5 ms:

- launch → usable screen: the entry list and the status line with the entry count drawn;
- launch → "model ready" in the status line;
- per mode (F3 keyword, F2 hybrid, F4 vector): the query typed one key every 0.3 s with
  ``tmux send-keys``, each key timed until the results header names the new query.

Screens captured on the way are written to ``bench/.cache/tui-tmux-transcript.txt``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench import synthetic

SESSION = "memory-tui-bench"
TRANSCRIPT = Path(__file__).resolve().parent / ".cache" / "tui-tmux-transcript.txt"
MEMORY_TUI = str(Path(sys.executable).parent / "memory-tui")


def tmux(*args: str) -> str:
    """Run a tmux command; its stdout."""
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True).stdout


def screen() -> str:
    """The visible pane."""
    return tmux("capture-pane", "-p", "-t", SESSION)


def wait_for(predicate: object, timeout: float = 30.0) -> tuple[float, str]:
    """Poll the screen until ``predicate(text)``; (monotonic time it held, the screen)."""
    deadline = time.monotonic() + timeout
    while True:
        text = screen()
        if predicate(text):  # type: ignore[operator]
            return time.monotonic(), text
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out; the screen was:\n{text}")
        time.sleep(0.005)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--query", default="vitamin d deficiency")
    args = parser.parse_args()
    root = synthetic.build(args.entries)
    subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True)
    transcript: list[str] = []
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    started = time.monotonic()
    tmux(
        "new-session", "-d", "-s", SESSION, "-x", "160", "-y", "48",
        f"{MEMORY_TUI} --project {root}",
    )  # fmt: skip
    count = f"{args.entries:,} entries"
    usable, text = wait_for(lambda s: count in s and "newest" in s)
    print(f"launch → usable screen: {usable - started:.2f} s")
    transcript += ["$ memory-tui  # usable screen", text]
    ready, text = wait_for(lambda s: "model ready" in s)
    print(f"launch → model ready: {ready - started:.2f} s")
    for key, mode in (("F3", "keyword"), ("F2", "hybrid"), ("F4", "vector")):
        tmux("send-keys", "-t", SESSION, key)
        wait_for(lambda s, m=mode: f"mode {m}" in s)
        times = []
        typed = ""
        for char in args.query:
            typed += char
            time.sleep(0.3)
            sent = time.monotonic()
            tmux("send-keys", "-t", SESSION, "-l", char)
            if char == " ":
                continue  # a trailing space searches the same words
            header = f"for “{typed}” · {mode}"
            shown, text = wait_for(lambda s, h=header: h in s)
            times.append((shown - sent) * 1000)
        transcript += [f"# {mode}: typed {args.query!r}", text]
        print(
            f"{mode:>7}: keystroke → updated results: median {statistics.median(times):.0f} ms, "
            f"max {max(times):.0f} ms ({len(times)} keys)"
        )
        tmux("send-keys", "-t", SESSION, "C-u")
        wait_for(lambda s: "newest" in s)
    tmux("send-keys", "-t", SESSION, "C-q")
    TRANSCRIPT.write_text("\n".join(transcript), encoding="utf-8")
    print(f"screens: {TRANSCRIPT}")


if __name__ == "__main__":
    main()
