"""Nosey Parker's examples and the context rules' samples through the real faces (issue 48).

As ``test_gitleaks_corpus.py`` does for gitleaks' rules: up to two examples of every
Nosey Parker rule that runs (its own, written for the rule) and every sample of every
context rule (``tests/context_samples.py``: the design set, both held-out sets and the
statements, sentences and commands added after them), each
inside a sentence with a unique word, go in through a knowledge file, MCP ``memory_add``
and ``memory-tui add``. Afterwards no file under ``.claude/memory/`` (``fts.sqlite``,
every LanceDB data and version file, every other) holds a secret the guard finds in
the sample, and each sentence is still found by keyword search. MCP's default policy,
``reject``, refuses them.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from cli_support import git_repo
from context_samples import DESIGN, HELD_OUT_1, HELD_OUT_2, ROUND_32, ROUND_33, STATEMENTS
from fakes import FakeEmbedder
from planting import cli_add_in_batches, mcp_add_each

from engine.guards.context import CONTEXT_RULES
from engine.guards.noseyparker import default_noseyparker
from engine.guards.privacy import find_secrets, redact_secrets
from engine.services.indexing import Indexer
from engine.services.memory import Memory

PER_RULE = 2
MIN_SECRET = 8
"""Shorter secrets could occur in a binary file by chance; they are counted, not checked."""


@cache
def planted() -> list[tuple[str, str, list[str]]]:
    """(rule or kind, sample, the secrets the guard finds in it): Nosey Parker's
    examples the guard takes (those it leaves are placeholders:
    ``test_noseyparker_samples.py``), then every context sample."""
    out = []
    for rule in default_noseyparker().rules:
        taken = [e for e in rule.examples if find_secrets(e)][:PER_RULE]
        out += [(rule.rule_id, e, [e[h.start : h.end] for h in find_secrets(e)]) for e in taken]
    rounds = STATEMENTS + ROUND_32 + ROUND_33
    for text in DESIGN + HELD_OUT_1 + HELD_OUT_2 + [t for _, t, _ in rounds]:
        hits = find_secrets(text)
        out += [(hits[0].kind, text, [text[h.start : h.end] for h in hits])]
    return out


def sentence(n: int, text: str) -> str:
    return f"The key audit item numbat{n}tapir quotes this:\n{text}\nEnd of item."


@cache
def _redacted() -> str:
    return "\n".join(redact_secrets(text, find_secrets(text)) for _, text, _ in planted())


def _written_plainly(secret: str) -> bool:
    """Whether some sample holds ``secret`` where the guard lets it through: a user or
    account name that one example pairs with a password and another with a
    placeholder, or that a URL of the same sample repeats. Passwords and keys never."""
    return secret in _redacted()


def _leaked(root: Path) -> list[str]:
    files = [p for p in (root / ".claude" / "memory").rglob("*") if p.is_file()]
    assert any(p.name == "fts.sqlite" for p in files)
    assert any(p.suffix == ".lance" for p in files)
    raw = b"".join(p.read_bytes() for p in files)
    return [
        f"{rule}: {secret[:12]}…"
        for rule, _, secrets in planted()
        for secret in secrets
        if len(secret) >= MIN_SECRET and secret.encode() in raw
        if not _written_plainly(secret)
    ]


def _found_all(root: Path, count: int) -> None:
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        lost = [
            n for n in range(count) if not memory.search(f"numbat{n}tapir", mode="keyword").results
        ]
        assert lost == [], f"sentences no longer found: {lost[:10]}"


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    git_repo(tmp_path)
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "memory.config.toml").write_text('secret_policy = "redact"\n')
    yield tmp_path


def test_the_corpus_covers_every_rule_of_the_second_source_and_every_context_kind() -> None:
    plain = [s for _, _, secrets in planted() for s in secrets if _written_plainly(s)]
    assert len(plain) <= 10, plain  # user and account names only
    rules = {rule for rule, _, _ in planted()}
    with_examples = {r.rule_id for r in default_noseyparker().rules if r.examples}
    # every rule with an example the guard takes (a rule whose every example is a
    # placeholder, such as Tavily's tvly-xxxx…, has nothing to plant)
    assert len(with_examples - rules) <= 3, sorted(with_examples - rules)
    kinds = {kind for kind, _, _ in CONTEXT_RULES} | {"table-secret"}
    found = {h.kind for _, text, _ in planted() for h in find_secrets(text)}
    assert kinds <= found, sorted(kinds - found)
    checked = sum(len(s) >= MIN_SECRET for _, _, secrets in planted() for s in secrets)
    assert checked >= 0.8 * sum(len(secrets) for _, _, secrets in planted())


def test_knowledge_files_keep_no_second_source_secret(project: Path) -> None:
    items = planted()
    knowledge = project / ".claude" / "knowledge"
    knowledge.mkdir()
    body = "\n\n".join(
        f"## Item {n}\n\n{sentence(n, sample)}" for n, (_, sample, _) in enumerate(items)
    )
    (knowledge / "audit.md").write_text(f"# Audit\n\n{body}\n", encoding="utf-8")
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        assert not Indexer(memory).run().errors
    assert _leaked(project) == []
    _found_all(project, len(items))


async def test_mcp_add_keeps_no_second_source_secret(project: Path) -> None:
    items = planted()
    texts = [sentence(n, sample) for n, (_, sample, _) in enumerate(items)]
    answers = await mcp_add_each(project, texts)
    for (rule, _, _), added in zip(items, answers, strict=True):
        assert added["redactions"], rule
    assert _leaked(project) == []
    _found_all(project, len(items))


async def test_mcp_add_refuses_them_by_default(tmp_path: Path) -> None:
    items = planted()[::3]
    texts = [sentence(n, sample) for n, (_, sample, _) in enumerate(items)]
    errors = await mcp_add_each(tmp_path, texts, refused=True)
    for (rule, _, _), refused in zip(items, errors, strict=True):
        assert refused["code"] == "SECRET_DETECTED", rule


@pytest.mark.slow
def test_cli_add_keeps_no_second_source_secret(project: Path) -> None:
    items = planted()
    cli_add_in_batches(project, [sentence(n, sample) for n, (_, sample, _) in enumerate(items)])
    assert _leaked(project) == []
    _found_all(project, len(items))
