"""``memory-tui import PATH…``: index more of the project's own documentation;
``memory-tui sources [--explain] [PATH…]``: what is in the memory and the rule that decided.

Each path (a markdown file or a folder, inside the project) is added to the ``sources``
setting of the project's config file, so the index, the git hooks and ``watch`` keep it
fresh from then on; then the index runs. A folder named this way is indexed even when the
default rules would leave it out (release notes, examples, a hidden folder).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from app.cli.messages import report_index_problems


def register(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add the ``import`` subcommand to the parser."""
    p = command("import", "Index project documentation beyond the defaults (adds to `sources`).")
    p.add_argument("paths", nargs="+", metavar="PATH", help="documentation files or folders")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(handler=import_sources)

    p = command("sources", "Count the project's files in the memory by the rule that decided.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: all)")
    p.add_argument("--explain", action="store_true", help="one line per file: in or out, and why")
    p.add_argument("--json", action="store_true", help="print every decision as JSON")
    p.set_defaults(handler=explain)


def explain(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui sources``: the counts by rule; with ``--explain``, every file too."""
    from engine import explain_sources, json_text, load_config, printable

    report = explain_sources(root, load_config(root), args.paths)
    if args.json:
        data = {
            "summary": report.summary(),
            "counts": {k: dict(v) for k, v in report.counts().items()},
            "files": [
                {"path": f.decision.rel, "kind": f.what, "included": f.decision.included,
                 "rule": f.decision.rule, "detail": f.decision.detail}
                for f in report.files
            ],
        }  # fmt: skip
        sys.stdout.write(json_text(json.dumps(data, indent=2, ensure_ascii=False)) + "\n")
        return 0
    lines = []
    if args.explain:
        for item in report.files:
            decision = item.decision
            where = f": {decision.detail}" if decision.detail else ""
            state = "in " if decision.included else "out"
            lines.append(f"{state}  {decision.rel}  ({item.what}, {decision.rule}{where})")
    other = sum(report.counts()["other"].values())
    lines.append(f"{report.summary()} · other (not docs or code) {other}")
    sys.stdout.write(printable("\n".join(lines)) + "\n")
    return 0


def import_sources(args: argparse.Namespace, root: Path) -> int:
    """Add the paths to ``sources``, then index what that brings in."""
    from engine import (
        CONFIG_JSON,
        CONFIG_TOML,
        EngineError,
        Indexer,
        Memory,
        load_config,
        pattern_for,
        set_config_value,
    )

    patterns = [pattern_for(root, raw) for raw in args.paths]  # all checked before any write
    current = list(load_config(root).sources)
    added = [p for p in dict.fromkeys(patterns) if p not in current]
    config_files = [root / name for name in (CONFIG_TOML, CONFIG_JSON)]
    before = {path: path.read_bytes() if path.is_file() else None for path in config_files}
    written = set_config_value(root, "sources", current + added) if added else None
    with Memory.open(root) as memory:
        indexer = Indexer(memory)
        matched = [rel for rel, _ in indexer.sources.files() if _covers(patterns, rel)]
        if not matched:  # nothing to index: the committed config stays as it was
            _restore(before)
            raise EngineError(
                f"{', '.join(args.paths)}: no documentation file there can be indexed "
                "(hidden, empty, or not documentation by its name or content: "
                "`memory-tui sources --explain PATH` says which); `sources` is unchanged",
                code="NOTHING_TO_IMPORT",
            )
        report = indexer.run(only=matched)
    summary = {
        "added": added,
        "config": str(written.relative_to(root)) if written else "",
        "files": matched,
        "entriesCreated": report.entries_created,
        "errors": [{"file": f, "message": m} for f, m in report.errors],
    }
    report_index_problems(report)
    if args.json:
        sys.stdout.write(json.dumps(summary, indent=2) + "\n")
    else:
        where = f" to `sources` in {summary['config']}" if added else " (already sources)"
        sys.stdout.write(
            f"Added {', '.join(added) or ', '.join(patterns)}{where}\n"
            f"{len(matched)} files, {report.entries_created} entries created, "
            f"{report.files_skipped} unchanged\n"
        )
    return 1 if report.errors else 0


def _restore(before: dict[Path, bytes | None]) -> None:
    """Put the config files back as they were (a file that did not exist is removed)."""
    for path, data in before.items():
        if data is None:
            path.unlink(missing_ok=True)
        else:
            path.write_bytes(data)


def _covers(patterns: list[str], rel: str) -> bool:
    for pattern in patterns:
        path = pattern.lstrip("/").removesuffix("/**")
        if rel == path or rel.startswith(path + "/"):
            return True
    return False
