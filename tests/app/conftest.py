"""Fixtures of the Pilot tests: a seeded memory, a message recorder, the project root."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tui_helpers import SEEDS, Recorder

from engine.services.memory import Memory


@pytest.fixture
def seeded(memory: Memory) -> Memory:
    """The shared ``memory`` fixture with :data:`SEEDS` added."""
    for content, category, keywords in SEEDS:
        memory.add(content, category=category, keywords=keywords)
    return memory


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    """A fresh message recorder."""
    yield Recorder()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The project root of the ``memory`` fixture."""
    return tmp_path
