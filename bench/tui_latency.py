"""Launch and keystroke-to-results latency of the Textual app on a 10,000-entry memory.

    python -m bench.tui_latency [--entries 10000] [--query "..."]

The memory is a synthetic one of :mod:`bench.synthetic` (SciFact abstracts and their real
vectors, copies with perturbed ones; seconds to build instead of the ~8 minutes that
embedding 5,000 more abstracts takes on two cores). The app then runs
headless with the real model (query embeddings are computed for real) and the script
types a query one key at a time, timing each key until the results for the new query
reach the main screen (drawing them adds a few milliseconds), per mode, once warm. The
figures from a real terminal (tmux) are recorded in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time

from bench import synthetic

ROOT = synthetic.root_for(10_000)


async def measure(query: str) -> None:
    """Launch the app headless on the memory and time keystrokes per mode."""
    from app.tui.factory import build_app
    from app.tui.messages import ResultsReady
    from app.tui.screens.main import MainScreen

    arrivals: dict[int, float] = {}

    def hook(message: object) -> None:
        if isinstance(message, ResultsReady):
            arrivals.setdefault(message.request.generation, time.perf_counter())

    started = time.perf_counter()
    app = build_app(ROOT)
    async with app.run_test(size=(160, 48), message_hook=hook) as pilot:
        screen = app.screen
        assert isinstance(screen, MainScreen)
        while screen._shown is None or screen.total is None:
            await asyncio.sleep(0.005)
        print(
            f"launch → first screen with entries: {time.perf_counter() - started:.2f} s "
            "(headless, in-process)"
        )
        while screen.model_state != "ready":
            await asyncio.sleep(0.05)
        print(f"launch → model ready: {time.perf_counter() - started:.1f} s")
        for key in ("f3", "f2", "f4"):
            await pilot.press(key)
            await pilot.press(*"warm up")  # the first query of a mode pays for warming
            await _idle(pilot)
            await pilot.press("ctrl+u")
            await _idle(pilot)
            times = []
            for char in query:
                t0 = time.perf_counter()
                await pilot.press(char)
                await asyncio.sleep(0.3)  # a pause, so that each key is timed on its own
                deadline = time.perf_counter() + 5
                while screen._generation not in arrivals and time.perf_counter() < deadline:
                    await asyncio.sleep(0.01)  # a slow answer on a busy machine
                if char != " ":  # a space does not change the query that is searched
                    times.append((arrivals[screen._generation] - t0) * 1000)
            await pilot.press("ctrl+u")
            await _idle(pilot)
            print(
                f"{screen.state.mode.value:>7}: key → results on screen's queue: median "
                f"{statistics.median(times):.0f} ms, max {max(times):.0f} ms ({len(times)} keys)"
            )


async def _idle(pilot: object) -> None:
    app = pilot.app  # type: ignore[attr-defined]
    await asyncio.sleep(0.2)
    await app.workers.wait_for_complete()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--query", default="vitamin d deficiency")
    args = parser.parse_args()
    global ROOT
    ROOT = synthetic.build(args.entries)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    asyncio.run(measure(args.query))


if __name__ == "__main__":
    main()
