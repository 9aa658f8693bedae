"""gitleaks' own true positives through the real faces (issue 35).

Two true-positive samples of every upstream rule (``tests/data/gitleaks/samples.json``,
written by gitleaks for its rules, not by this project), each inside a sentence with a
unique word, go in through a knowledge file, MCP ``memory_add`` and ``memory-tui add``.
Afterwards no file under ``.claude/memory/`` (``fts.sqlite``, the LanceDB data and
version files, every other) holds the secret that the sample's own rule finds, and each
sentence is still found by keyword search. False positives that the guard lets through
are stored as written. In the knowledge file, the few upstream rules meant for other
files (:func:`path_scoped`) do not run, as in gitleaks.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from cli_support import git_repo
from fakes import FakeEmbedder
from planting import cli_add_in_batches, mcp_add_each

from engine.guards.privacy import find_secrets
from engine.guards.ruleset import Ruleset, default_ruleset
from engine.services.indexing import Indexer
from engine.services.memory import Memory

DATA = Path(__file__).resolve().parents[1] / "data" / "gitleaks" / "samples.json"
PER_RULE = 2
MIN_SECRET = 8
"""Shorter secrets could occur in a binary file by chance; they are counted, not checked."""


@cache
def planted() -> list[tuple[str, str, str]]:
    """(rule id, sample, the secret its own rule finds in it), ``PER_RULE`` per rule: the
    samples of a rule differ in their setting (INI, JSON, YAML, code), so the first ones
    taken are spread over the settings."""
    rules = json.loads(DATA.read_text(encoding="utf-8"))["rules"]
    full = default_ruleset()
    by_id = {r.rule_id: r for r in full.rules}
    out = []
    for rule_id, record in sorted(rules.items()):
        if rule_id not in by_id:  # a path-only rule: no expression to run on text
            continue
        single = Ruleset([by_id[rule_id]], [], full.global_allowlists)
        step = max(1, len(record["tps"]) // PER_RULE)
        for sample in record["tps"][::step][:PER_RULE]:
            if "example" in sample.lower():
                continue  # a stand-in the guard lets through (test_gitleaks_samples.py)
            secrets = [f.secret for f in single.find(sample)]
            out.append((rule_id, sample, max(secrets, key=len)))
    return out


def kept_false_positives() -> list[str]:
    """Upstream false positives the whole guard lets through (most of them)."""
    rules = json.loads(DATA.read_text(encoding="utf-8"))["rules"]
    fps = [fp for record in rules.values() for fp in record["fps"]]
    return [fp for fp in fps if not find_secrets(fp) and 12 <= len(fp) <= 300][:40]


def sentence(n: int, text: str) -> str:
    return f"The vault audit item wombat{n}kiwi quotes this:\n{text}\nEnd of item."


def _configure(root: Path) -> None:
    (root / ".claude").mkdir(parents=True, exist_ok=True)
    (root / ".claude" / "memory.config.toml").write_text('secret_policy = "redact"\n')


def path_scoped() -> frozenset[str]:
    """Upstream rules meant for other files (``.php``, ``.tf``, ``.yaml``,
    ``nuget.config``): in a markdown knowledge file they do not run, as gitleaks runs none
    of them on a ``.md`` file (a note has no path: there they run)."""
    return frozenset(r.rule_id for r in default_ruleset().rules if r.path is not None)


def _leaked(root: Path, skip: frozenset[str] = frozenset()) -> list[str]:
    files = [p for p in (root / ".claude" / "memory").rglob("*") if p.is_file()]
    assert any(p.name == "fts.sqlite" for p in files)
    assert any(p.suffix == ".lance" for p in files)  # the store's data files
    raw = b"".join(p.read_bytes() for p in files)
    return [
        f"{rule_id}: {secret[:12]}…"
        for rule_id, _, secret in planted()
        if len(secret) >= MIN_SECRET and secret.encode() in raw and rule_id not in skip
    ]


def _found_all(root: Path, count: int) -> None:
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        lost = [
            n for n in range(count) if not memory.search(f"wombat{n}kiwi", mode="keyword").results
        ]
        assert lost == [], f"sentences no longer found: {lost[:10]}"


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    git_repo(tmp_path)  # the CLI starts a memory only in a git repository
    _configure(tmp_path)
    yield tmp_path


def test_the_planted_corpus_covers_every_rule_with_samples() -> None:
    rules = {rule_id for rule_id, _, _ in planted()}
    assert len(rules) >= 200 and len(planted()) >= 2 * 200 - 10
    assert sum(len(s) >= MIN_SECRET for _, _, s in planted()) >= 0.95 * len(planted())


def test_knowledge_files_keep_no_upstream_secret(project: Path) -> None:
    items = planted()
    kept = kept_false_positives()
    knowledge = project / ".claude" / "knowledge"
    knowledge.mkdir()
    body = "\n\n".join(
        f"## Item {n}\n\n{sentence(n, sample)}" for n, (_, sample, _) in enumerate(items)
    )
    (knowledge / "audit.md").write_text(f"# Audit\n\n{body}\n", encoding="utf-8")
    fps = "\n\n".join(f"## Kept {n}\n\n{fp}" for n, fp in enumerate(kept))
    (knowledge / "kept.md").write_text(f"# Kept\n\n{fps}\n", encoding="utf-8")
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        report = Indexer(memory).run()
        assert not report.errors
        stored = "\n".join(e.content for e in memory.list(limit=None))
    assert len(path_scoped()) <= 5
    assert _leaked(project, skip=path_scoped()) == []
    assert [fp for fp in kept if fp.strip() not in stored] == []
    _found_all(project, len(items))


async def test_mcp_add_keeps_no_upstream_secret(project: Path) -> None:
    items = planted()
    texts = [sentence(n, sample) for n, (_, sample, _) in enumerate(items)]
    answers = await mcp_add_each(project, texts)
    for (rule, _, _), added in zip(items, answers, strict=True):
        assert added["redactions"], rule
    assert _leaked(project) == []
    _found_all(project, len(items))


async def test_mcp_add_refuses_upstream_secrets_by_default(tmp_path: Path) -> None:
    items = planted()[::7]
    texts = [sentence(n, sample) for n, (_, sample, _) in enumerate(items)]
    errors = await mcp_add_each(tmp_path, texts, refused=True)
    for (rule, _, _), refused in zip(items, errors, strict=True):
        assert refused["code"] == "SECRET_DETECTED", rule


@pytest.mark.slow
def test_cli_add_keeps_no_upstream_secret(project: Path) -> None:
    items = planted()
    cli_add_in_batches(project, [sentence(n, sample) for n, (_, sample, _) in enumerate(items)])
    assert _leaked(project) == []
    _found_all(project, len(items))
