"""Screenshots of the real app for the README, over a demo memory of the Argo CD docs.

    .venv/bin/python screenshots/make_screenshots.py [--rebuild] [--size 160x48]

The demo memory is built once (about 40 files of ``../shared/eval/markdown/argo-cd-docs``
sorted into knowledge folders, indexed with the real embedding model, plus a few notes as
an agent or a person would add them) and reused afterwards. Each screen is saved as an SVG
next to this script; README.md shows them.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

from app.tui.app import MemoryApp
from app.tui.factory import build_app
from app.tui.screens.main import MainScreen
from engine.services.indexing import Indexer
from engine.services.memory import Memory

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DOCS = REPO.parent / "shared" / "eval" / "markdown" / "argo-cd-docs" / "docs"
DEMO = REPO / "bench" / ".cache" / "tui-demo"
OM, UG = "operator-manual", "user-guide"
SELECTION: dict[str, list[str]] = {
    "architecture": [
        f"{OM}/architecture.md",
        f"{OM}/core.md",
        f"{OM}/dynamic-cluster-distribution.md",
        f"{OM}/reconcile.md",
        f"{OM}/disaster_recovery.md",
    ],
    "components": [
        f"{OM}/webhook.md",
        f"{OM}/health.md",
        f"{OM}/notifications/index.md",
        f"{OM}/notifications/triggers.md",
        f"{OM}/notifications/subscriptions.md",
    ],
    "domain": [
        "core_concepts.md",
        "understand_the_basics.md",
        f"{UG}/projects.md",
        f"{UG}/auto_sync.md",
        f"{UG}/selective_sync.md",
        f"{UG}/sync-waves.md",
        f"{UG}/sync-options.md",
    ],
    "patterns": [
        f"{OM}/cluster-bootstrapping.md",
        f"{OM}/secret-management.md",
        f"{UG}/best_practices.md",
        f"{UG}/multiple_sources.md",
        f"{UG}/kustomize.md",
        f"{UG}/ci_automation.md",
    ],
    "gotchas": [
        "faq.md",
        f"{OM}/troubleshooting.md",
        f"{OM}/notifications/troubleshooting-errors.md",
        f"{UG}/diffing.md",
        f"{UG}/orphaned-resources.md",
    ],
    "guides": ["getting_started.md", f"{OM}/tls.md", f"{UG}/private-repositories.md"],
}
"""Knowledge folder → Argo CD doc files copied into it (the folder sets the category)."""

NOTES = (
    (
        "Argo CD compares live and desired state every 3 minutes by default; set "
        "`timeout.reconciliation` in argocd-cm to change it, and use a webhook to avoid waiting.",
        "gotcha",
        "session",
        ["reconciliation", "webhook"],
    ),
    (
        "Sync waves run lower waves first; hooks in the same wave run by kind. Use negative "
        "waves for namespaces and CRDs that everything else needs.",
        "pattern",
        "manual",
        ["sync-waves", "hooks"],
    ),
    (
        "Our clusters register with `argocd cluster add` from the bootstrap job; never by hand.",
        "domain",
        "manual",
        ["clusters"],
    ),
)
"""Entries added as an agent (session) or a person (manual) would."""


def build_demo(root: Path, *, rebuild: bool) -> None:
    """Copy the selection into ``root``, index it with the real model, add the notes."""
    if rebuild:
        shutil.rmtree(root, ignore_errors=True)
    if (root / ".claude" / "memory" / "fts.sqlite").exists():
        return
    knowledge = root / ".claude" / "knowledge"
    for folder, files in SELECTION.items():
        for name in files:
            target = knowledge / folder / Path(name).name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(DOCS / name, target)
    with Memory.open(root) as memory:
        report = Indexer(memory).run()
        count = memory.count()
        print(f"indexed {report.files_total} files, {count} entries, {report.seconds:.0f} s")
        for content, category, source, keywords in NOTES:
            memory.add(content, category=category, source=source, keywords=keywords)


async def wait_until_idle(pilot: Pilot[None], *, model: bool = True) -> None:
    """Let the model load (when asked) and every search finish."""
    app = pilot.app
    for _ in range(600):
        main = [s for s in app.screen_stack if isinstance(s, MainScreen)]
        ready = not model or (bool(main) and main[0].model_state == "ready")
        if ready and not any(w.is_running for w in app.workers):
            break
        await pilot.pause(0.1)
    await pilot.pause(0.3)


Step = Callable[[Pilot[None]], Awaitable[None]]


def typing(query: str, *keys: str) -> Step:
    """Type ``query``, wait for results, then press ``keys`` (``action:NAME`` runs a
    main-screen action instead, as the command palette does)."""

    async def run(pilot: Pilot[None]) -> None:
        await pilot.press(*query)
        await wait_until_idle(pilot)
        for key in keys:
            if key.startswith("action:"):
                await pilot.app.screen.run_action(key.removeprefix("action:"))
                await pilot.pause()
            else:
                await pilot.press(key)
        await wait_until_idle(pilot)

    return run


async def shoot(app: MemoryApp, name: str, size: tuple[int, int], step: Step) -> None:
    """Run ``app`` at ``size``, play ``step``, save ``screenshots/<name>.svg``."""
    started = time.perf_counter()
    async with app.run_test(size=size) as pilot:
        await wait_until_idle(pilot)
        await step(pilot)
        app.save_screenshot(f"{name}.svg", str(HERE))
    print(f"screenshots/{name}.svg ({time.perf_counter() - started:.1f} s)")


async def main(size: tuple[int, int], rebuild: bool) -> None:
    """Make every screenshot."""
    build_demo(DEMO, rebuild=rebuild)
    shots: list[tuple[str, Path | None, Step]] = [
        ("results-with-preview", None, typing("how do sync waves order resources")),
        (
            "browse-by-category",
            None,
            typing("", "action:focus_filters", "down", "down", "down", "enter"),
        ),
        (
            "export-modal",
            None,
            typing("ingress tls certificate", "ctrl+s", "right", "right", "space"),
        ),
        ("add-form-validation", None, typing("", "ctrl+n", "ctrl+s")),
        ("help", None, typing("", "f1")),
        ("empty-memory", Path(tempfile.mkdtemp()), typing("")),
    ]
    for name, root, step in shots:
        await shoot(build_app(root or DEMO), name, size, step)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rebuild", action="store_true", help="rebuild the demo memory")
    parser.add_argument("--size", default="160x48", help="terminal size, WIDTHxHEIGHT")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    asyncio.run(main((width, height), args.rebuild))
