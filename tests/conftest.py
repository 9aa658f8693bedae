"""Shared fixtures: isolation from the user's environment, a fake embedder, a memory."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import s3_server as s3
from fakes import FakeEmbedder

from engine.services.memory import Memory


@pytest.fixture(autouse=True)
def _isolate(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No CLAUDE_MEMORY_* variable, HTTP token or real home directory leak into a test."""
    for name in list(os.environ):
        if name.startswith("CLAUDE_MEMORY_") or name == "MEMORY_TUI_HTTP_TOKEN":
            monkeypatch.delenv(name)
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """An empty home directory for the subprocesses a test runs (``run_cli(home=...)``)."""
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def fake_embedder() -> FakeEmbedder:
    """A fresh deterministic embedder."""
    return FakeEmbedder()


@pytest.fixture
def memory(tmp_path: Path, fake_embedder: FakeEmbedder) -> Iterator[Memory]:
    """A memory in an empty project at ``tmp_path``, embedding with the fake embedder."""
    mem = Memory.open(tmp_path, embedder=fake_embedder)
    yield mem
    mem.close()


# --- a real S3-compatible server on loopback (the remote-store tests, issue 22) ---------


@pytest.fixture(scope="session")
def s3_server() -> Iterator[s3.S3Server]:
    """One moto S3 server for the session (a child process, see s3_server)."""
    running = s3.start_server()
    yield running
    running.close()


@pytest.fixture
def s3_env(s3_server: s3.S3Server, monkeypatch: pytest.MonkeyPatch) -> s3.S3Server:
    """The AWS_* environment pointing at the session's server."""
    for name, value in s3.aws_env(s3_server.endpoint).items():
        monkeypatch.setenv(name, value)
    return s3_server


# --- order: the files holding slow tests first -----------------------------------------


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the files that hold a slow test first, each file's tests kept together and in
    their order. With several workers (``make test`` runs ``pytest -n``) the long tests
    then start early and the others fill in around them, instead of one long test running
    alone at the end; a serial run only changes order."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)
