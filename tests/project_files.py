"""A project's files written for a test, and the documentation sources memory-tui finds
among them (the one helper the analyzer and source-rule tests share)."""

from __future__ import annotations

from pathlib import Path

from engine.core.config import load_config
from engine.services.sources import SourceSet


def write(root: Path, files: dict[str, str]) -> Path:
    """Write each ``files`` path (relative to ``root``) with its text; returns ``root``."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def sources(root: Path) -> list[str]:
    """The documentation sources of the project at ``root``, as the indexer walks them."""
    cfg = load_config(root)
    return [rel for rel, _ in SourceSet(root, cfg, root / cfg.knowledge_dir).files()]
