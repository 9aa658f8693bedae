"""Launch and keystroke-to-results latency of the Textual app on a 10,000-entry memory.

    python -m bench.tui_latency [--entries 10000] [--query "..."]

The memory is a synthetic one of :mod:`bench.synthetic` (SciFact abstracts and their real
vectors, copies with perturbed ones; seconds to build instead of the ~8 minutes that
embedding 5,000 more abstracts takes on two cores). The app then runs
headless with the real model (query embeddings are computed for real) and the script
types a query one key at a time, timing each key until the results for the new query
reach the main screen (drawing them adds a few milliseconds), per mode, once warm. The app
is launched ``--launches`` times; each figure is reported as median and p90. The figures
from a real terminal (tmux) are recorded in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time

from bench import synthetic

ROOT = synthetic.root_for(10_000)
MODE_KEYS = {"hybrid": "f2", "keyword": "f3", "vector": "f4"}


def p90(values: list[float]) -> float:
    """The 90th percentile (the value itself for a single one)."""
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def summary(values: list[float], unit: str, digits: int = 0) -> str:
    """``median X, p90 Y (n)``."""
    return (
        f"median {statistics.median(values):.{digits}f} {unit}, "
        f"p90 {p90(values):.{digits}f} {unit} ({len(values)})"
    )


async def launch(query: str, modes: list[str], keys: dict[str, list[float]]) -> tuple[float, float]:
    """Launch the app headless on the memory once; time each key of ``query`` per mode
    (added to ``keys``). Returns (launch → usable s, launch → model ready s)."""
    from app.tui.factory import build_app
    from app.tui.screens.main import MainScreen
    from app.tui.widgets.results_pane import ResultsPane

    arrivals: dict[int, float] = {}

    def hook(message: object) -> None:
        if isinstance(message, ResultsPane.ResultsReady):
            arrivals.setdefault(message.request.generation, time.perf_counter())

    started = time.perf_counter()
    app = build_app(ROOT)
    async with app.run_test(size=(160, 48), message_hook=hook) as pilot:
        screen = app.screen
        assert isinstance(screen, MainScreen)
        while screen.results.shown is None or screen.status.entries is None:
            await asyncio.sleep(0.005)
        usable = time.perf_counter() - started
        while screen.model_state != "ready":
            await asyncio.sleep(0.05)
        ready = time.perf_counter() - started
        for mode in modes:
            await pilot.press(MODE_KEYS[mode])
            await pilot.press(*"warm up")  # the first query of a mode pays for warming
            await _idle(pilot)
            await pilot.press("ctrl+u")
            await _idle(pilot)
            for char in query:
                t0 = time.perf_counter()
                await pilot.press(char)
                await asyncio.sleep(0.3)  # a pause, so that each key is timed on its own
                deadline = time.perf_counter() + 5
                while screen.results.generation not in arrivals and time.perf_counter() < deadline:
                    await asyncio.sleep(0.01)  # a slow answer on a busy machine
                if char != " ":  # a space does not change the query that is searched
                    keys[mode].append((arrivals[screen.results.generation] - t0) * 1000)
            await pilot.press("ctrl+u")
            await _idle(pilot)
            if mode == "hybrid":
                keys["burst"].append(await burst(pilot, screen, arrivals, query, keys))
    return usable, ready


async def burst(
    pilot: object,
    screen: object,
    arrivals: dict[int, float],
    query: str,
    keys: dict[str, list[float]],
) -> float:
    """Type ``query`` fast (one key every 30 ms, a quick typist); ms from the last key to
    the results for the whole query. How many searches were answered is added to
    ``keys["answered"]`` (debouncing and dropping stale searches keep it low)."""
    from app.tui.widgets.search_bar import SearchBar

    bar = screen.query_one(SearchBar)  # type: ignore[attr-defined]
    before = set(arrivals)
    for end in range(1, len(query) + 1):
        # An edit per key, without waiting for the app to be idle (as a key press in a
        # test does): the app sees keys arrive as fast as they are typed.
        last = time.perf_counter()
        bar.value = query[:end]
        await asyncio.sleep(0.03)
    while screen.state.query != query:  # type: ignore[attr-defined]
        await asyncio.sleep(0.005)
    final = screen.results.generation  # type: ignore[attr-defined]
    deadline = time.perf_counter() + 10
    while final not in arrivals and time.perf_counter() < deadline:
        await asyncio.sleep(0.005)
    keys["answered"].append(len(set(arrivals) - before))
    await pilot.press("ctrl+u")  # type: ignore[attr-defined]
    await _idle(pilot)
    return (arrivals[final] - last) * 1000


async def measure(query: str, launches: int, modes: list[str]) -> None:
    """Launch the app ``launches`` times; print launch and per-mode keystroke figures."""
    usable, ready = [], []
    keys: dict[str, list[float]] = {mode: [] for mode in (*modes, "burst", "answered")}
    for _ in range(launches):
        first, model = await launch(query, modes, keys)
        usable.append(first)
        ready.append(model)
    print(f"launch → usable (entries listed, counts shown): {summary(usable, 's', 2)}")
    print(f"launch → model ready: {summary(ready, 's', 1)}")
    for mode in modes:
        print(f"{mode:>7}: key → results on the screen's queue: {summary(keys[mode], 'ms')}")
    if keys["burst"]:
        print(
            f"hybrid, typed at 30 ms a key: last key → results {summary(keys['burst'], 'ms')}; "
            f"searches answered per {len(query)}-key query: {summary(keys['answered'], '')}"
        )


async def _idle(pilot: object) -> None:
    app = pilot.app  # type: ignore[attr-defined]
    await asyncio.sleep(0.2)
    await app.workers.wait_for_complete()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--query", default="vitamin d deficiency")
    parser.add_argument("--launches", type=int, default=3, help="app launches (default 3)")
    parser.add_argument(
        "--modes", default="keyword,hybrid,vector", help="modes to time keys in, in order"
    )
    args = parser.parse_args()
    global ROOT
    ROOT = synthetic.build(args.entries)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    asyncio.run(measure(args.query, args.launches, args.modes.split(",")))
    print(f"load average {os.getloadavg()[0]:.1f} after")


if __name__ == "__main__":
    main()
