"""``memory-tui doctor --secrets [--fix]`` on a store that an older version filled (issue 14).

The secret gets past the guard the way it does in life: added while the project allowed it
(``secret_allowlist``: a false positive, someone thought), the allowance withdrawn since,
which leaves what a version that did not know its kind left. The scan names the entry and
the kind (never the secret), and the fix leaves no copy in any file under
``.claude/memory/``: the store (old versions too), the keyword index, the embedding cache.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from cli_support import run_cli
from fakes import FakeEmbedder
from secret_samples import SAMPLES

from engine.core.models import Entry
from engine.embedding.base import Embedder
from engine.guards.privacy import fingerprint
from engine.services.memory import Memory
from engine.services.secret_scan import fix_secrets, scan_secrets

TOKEN = SAMPLES["github-token"][0].split()[-1]
TEXT = f"The release job pushes with {TOKEN} every night from the ferret pipeline."


def _plant(
    memory: Memory,
    text: str,
    embedder: Embedder | None,
    *,
    keywords: tuple[str, ...] = (),
) -> Entry:
    """Store ``text`` (and ``keywords``) as they are, TOKEN included: added by another
    process of the project while the token was on its allow-list."""
    allowed = replace(memory.config, secret_allowlist=(TOKEN,))
    with Memory.open(memory.paths.root, config=allowed, embedder=embedder) as other:
        return other.add(text, keywords=list(keywords)).entry


def _raw(root: Path) -> bytes:
    files = (root / ".claude" / "memory").rglob("*")
    return b"".join(p.read_bytes() for p in files if p.is_file())


def test_scan_finds_and_fix_leaves_no_copy(tmp_path: Path) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add("an ordinary note about the ferret pipeline schedule")
        planted = _plant(memory, TEXT, FakeEmbedder())
        scan = scan_secrets(memory)
        assert {f.entry_id for f in scan.findings} == {planted.id}
        assert {f.where for f in scan.findings} == {"store", "keyword index"}
        assert scan.by_kind == {"github-token": 2}
        assert fingerprint(TOKEN) in scan.findings[0].fingerprints
    assert TOKEN.encode() in _raw(tmp_path)
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        fixed = fix_secrets(memory)
        assert fixed.fixed == 1
        assert scan_secrets(memory).findings == []
        stored = memory.require(planted.id).content
        assert "[redacted: github-token]" in stored and "ferret pipeline" in stored
        hits = [r.entry.id for r in memory.search("nightly ferret", mode="keyword").results]
        assert planted.id in hits
    assert TOKEN.encode() not in _raw(tmp_path)


def test_an_allowed_fingerprint_is_not_reported(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    config = tmp_path / ".claude" / "memory.config.toml"
    config.write_text(f'secret_allowlist = ["{fingerprint(TOKEN)}"]\n', encoding="utf-8")
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        _plant(memory, TEXT, FakeEmbedder())
        assert scan_secrets(memory).findings == []
        added = memory.add(f"allowed on purpose: {TOKEN} in the fixture").entry
        assert TOKEN in added.content  # the allow-list holds on add too


def test_cli_scan_names_entries_never_the_secret(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    with Memory.open(tmp_path, embedder=FakeEmbedder(384)) as memory:
        planted = _plant(memory, TEXT, FakeEmbedder(384))
    out = run_cli("doctor", "--secrets", "--json", cwd=tmp_path, home=home)
    assert out.returncode == 1, out.stderr
    assert TOKEN not in out.stdout + out.stderr
    data = json.loads(out.stdout)
    assert data["found"] == 1 and data["by_kind"] == {"github-token": 2}
    assert {f["id"] for f in data["findings"]} == {planted.id}
    assert "--secrets --fix" in out.stderr
    wrong = run_cli("doctor", "--fix", cwd=tmp_path, home=home)
    assert wrong.returncode == 2 and "--secrets" in wrong.stderr


@pytest.mark.slow
def test_cli_fix_with_the_real_model(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    with Memory.open(tmp_path) as memory:
        _plant(memory, TEXT, None)  # the real model
    out = run_cli("doctor", "--secrets", "--fix", cwd=tmp_path, home=home, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "redacted 1 entry;" in out.stderr
    assert TOKEN.encode() not in _raw(tmp_path)
    again = run_cli("doctor", "--secrets", cwd=tmp_path, home=home)
    assert again.returncode == 0 and "no stored secret" in again.stderr


def test_fix_forgets_the_vector_of_a_secret_keyword_and_keeps_the_redacted_ones(
    tmp_path: Path,
) -> None:
    """Keywords are embedded with the text (engine/embedding/document.py): the vector of
    the old labels goes, the redacted entry's own vector stays in the cache."""
    import sqlite3

    from engine.embedding.document import document_key

    clean = "The release job pushes every night from the ferret pipeline."
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add("an ordinary note about the ferret pipeline schedule")
        entry = _plant(memory, clean, FakeEmbedder(), keywords=("release", TOKEN))
        assert entry.keywords == ("release", TOKEN)
        fix_secrets(memory)
        redacted = memory.require(entry.id)
    assert redacted.keywords == ("release",)
    cache = sqlite3.connect(tmp_path / ".claude" / "memory" / "embeddings.sqlite")
    keys = {row[0] for row in cache.execute("SELECT content_hash FROM embedding_cache")}
    cache.close()
    assert document_key(entry) not in keys
    assert document_key(redacted) in keys
