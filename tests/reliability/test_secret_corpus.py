"""No secret is ever stored, whichever face it comes through (issue 14).

A corpus of fake but well-formed credentials of every kind the guard knows (built at run
time, so this file holds none), each inside an ordinary sentence with a unique word, goes
in through the knowledge files (one key long enough to cross a chunk boundary, one PEM
escaped in JSON), ``memory-tui add``, MCP's ``memory_add`` and the terminal app's add form.
Afterwards no file under ``.claude/memory/`` holds any of them (raw bytes, every file),
and the sentence around each is still found by keyword search.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli
from fakes import FakeEmbedder
from mcp_helpers import call, connect
from secret_samples import B64, SAMPLES
from textual.widgets import TextArea
from tui_helpers import make_app, settle

from app.mcp.server import create_server
from app.tui.screens.entry_form import EntryFormScreen
from engine.guards.privacy import find_secrets
from engine.services.indexing import Indexer
from engine.services.memory import Memory

LONG_KEY = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    + "\n".join((B64 * 60)[i : i + 64] for i in range(0, 64 * 60, 64))
    + "\n-----END RSA PRIVATE KEY-----"
)
"""A key of ~3,900 characters: longer than a 2,000-character chunk."""
JSON_PEM = '{"private_key": "' + "-----BEGIN RSA PRIVATE KEY-----\\n" + B64 * 2 + "\\n-----END"
JSON_PEM += ' RSA PRIVATE KEY-----\\n"}'
TRANSCRIPT = "$ aws configure\nAWS Access Key ID [None]: AKIA" + "Q7W8E9R0T1Y2U3I4\n"
TRANSCRIPT += "AWS Secret Access Key [None]: " + "kF8sL2mQ9xV4bN7cJ1hT6gR3wY5zP0aE" + "dU8iO2qA\n"


def corpus() -> list[tuple[str, str]]:
    """(kind, text holding one secret): every sample of the guard's own tests, plus the
    shapes that leaked before (a bare secret in an ``aws configure`` transcript)."""
    items = [(kind, text) for kind, texts in SAMPLES.items() for text in texts]
    return [*items, ("aws-secret-key", TRANSCRIPT)]


def secret_values(text: str) -> list[str]:
    """The credential substrings of ``text`` that must never reach the disk (the longest
    token-like run of each match: the key, not its name)."""
    values = []
    for hit in find_secrets(text):
        matched = text[hit.start : hit.end]
        runs = [r for r in matched.replace("\\n", "\n").split() if len(r) >= 12]
        values.append(max(runs, key=len) if runs else matched)
    assert values, text
    return values


def sentence(n: int, text: str) -> str:
    return f"The deployment checklist item zebra{n}quokka mentions this:\n{text}\nEnd of item."


def _configure(root: Path) -> None:
    (root / ".claude").mkdir(parents=True, exist_ok=True)
    (root / ".claude" / "memory.config.toml").write_text('secret_policy = "redact"\n')


def _leaks(root: Path, items: list[tuple[str, str]]) -> Counter[str]:
    raw = b"".join(p.read_bytes() for p in (root / ".claude" / "memory").rglob("*") if p.is_file())
    leaked: Counter[str] = Counter()
    for kind, text in items:
        for value in secret_values(text):
            if value.encode() in raw:
                leaked[kind] += 1
    return leaked


def _found_all(root: Path, count: int) -> None:
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        for n in range(count):
            hits = memory.search(f"zebra{n}quokka", mode="keyword").results
            assert hits, f"the sentence of item {n} is no longer found"


def test_knowledge_files_keep_no_secret(tmp_path: Path) -> None:
    items = [*corpus(), ("private-key", LONG_KEY), ("private-key", JSON_PEM)]
    _configure(tmp_path)
    knowledge = tmp_path / ".claude" / "knowledge"
    knowledge.mkdir()
    body = "\n\n".join(f"## Item {n}\n\n{sentence(n, text)}" for n, (_, text) in enumerate(items))
    (knowledge / "runbook.md").write_text(f"# Runbook\n\n{body}\n", encoding="utf-8")
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        report = Indexer(memory).run()
        assert not report.errors
        assert memory.count() > 1  # cut into several chunks: the long key crosses one
    assert _leaks(tmp_path, items) == Counter()
    _found_all(tmp_path, len(items))


async def test_mcp_add_keeps_no_secret(tmp_path: Path) -> None:
    items = corpus()
    _configure(tmp_path)
    memory = Memory.open(tmp_path, embedder=FakeEmbedder())
    server = create_server(memory, warm_up=False)
    try:
        async with connect(server) as client:
            for n, (_, text) in enumerate(items):
                added = await call(client, "memory_add", content=sentence(n, text))
                assert added["redactions"], text
    finally:
        server.state.close()
        memory.close()
    assert _leaks(tmp_path, items) == Counter()
    _found_all(tmp_path, len(items))


async def test_tui_add_keeps_no_secret(tmp_path: Path) -> None:
    items = corpus()
    _configure(tmp_path)
    memory = Memory.open(tmp_path, embedder=FakeEmbedder())
    app = make_app(memory)
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            for n, (_, text) in enumerate(items):
                await pilot.press("ctrl+n")
                await pilot.pause()
                assert isinstance(app.screen, EntryFormScreen)
                app.screen.query_one("#content", TextArea).insert(sentence(n, text))
                await pilot.press("ctrl+s")
                await settle(pilot)
                assert not isinstance(app.screen, EntryFormScreen), text
    finally:
        memory.close()
    assert _leaks(tmp_path, items) == Counter()
    _found_all(tmp_path, len(items))


@pytest.mark.slow
def test_cli_add_keeps_no_secret(tmp_path: Path) -> None:
    git_repo(tmp_path)
    items = corpus()
    _configure(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    for n, (_, text) in enumerate(items):
        out = run_cli("add", "-", "--json", cwd=tmp_path, home=home, stdin=sentence(n, text))
        assert out.returncode == 0, out.stderr
        assert "redacted a likely secret" in out.stderr, text
        assert "[redacted: " in json.loads(out.stdout)["entry"]["content"]
    assert _leaks(tmp_path, items) == Counter()
    _found_all(tmp_path, len(items))


def test_the_corpus_covers_every_kind_with_thirty_secrets() -> None:
    items = corpus()
    assert len(items) >= 30
    assert {kind for kind, _ in items} == set(SAMPLES)
