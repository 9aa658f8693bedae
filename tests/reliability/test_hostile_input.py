"""Hostile and odd input, with property tests: queries, content limits and secrets on every
face, knowledge paths, and the five export formats.

What earlier suites cover is not repeated here: FTS5 syntax in the keyword index
(tests/engine/test_fts.py), the machine formats' round trip (tests/engine/test_export.py),
bad knowledge files and config types (tests/engine/test_indexer.py, test_config.py), MCP
input limits and refused memory:// paths (tests/mcp/).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli
from fakes import FakeEmbedder
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from app.mcp.knowledge import KnowledgePathError, resolve
from engine.core.errors import InvalidInputError, SecretDetectedError
from engine.core.models import MAX_CONTENT_LENGTH, Entry, SearchResult
from engine.guards.privacy import REDACTED
from engine.output.export import TEXT_SNIPPET_CHARS, render
from engine.search.searcher import NOTHING_TO_SEARCH
from engine.services.entries import NewEntry
from engine.services.memory import Memory

_FTS_TRICKS = ['"', "'", "NOT", "AND", "OR", "NEAR(", "*", ":", "-", "(", ")", "^", "{", "\x00"]
_QUERY = st.lists(st.one_of(st.text(), st.sampled_from(_FTS_TRICKS)), max_size=12).map(" ".join)

# One real credential-shaped sample per kind the detector knows (assembled, so that this
# file itself holds no secret a scanner would flag).
SECRETS = {
    "aws-access-key-id": "AKIA" + "Q7XJ2M4PL9RT3VWZ",
    "github-pat": "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "slack-token": "xoxb-" + "123456789012-abcdefABCDEF",
    "private-key": "-----BEGIN RSA PRIVATE KEY-----\n"
    + "MIIEpAIBAAKCAQEA7fK2b9Q" * 3
    + "\n-----END RSA PRIVATE KEY-----",
    "url-password": "postgres://admin:" + "hunter2hunter2" + "@db.internal:5432/app",
}


@pytest.fixture(scope="module")
def shared_memory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    """One memory for many hypothesis examples (a fresh one per example would be slow)."""
    root = tmp_path_factory.mktemp("hostile")
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        memory.add_many(
            [NewEntry(f'note {n}: "quoted" NOT near(x) a*b col:val {n}') for n in range(20)]
        )
        yield memory


# -- queries ------------------------------------------------------------------------------


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=_QUERY, mode=st.sampled_from(["keyword", "vector", "hybrid"]))
def test_any_query_returns_results_or_a_clear_error(
    shared_memory: Memory, query: str, mode: str
) -> None:
    try:
        response = shared_memory.search(query, mode=mode, limit=10)
    except InvalidInputError as exc:
        assert not query.replace("\x00", " ").strip()  # only an empty query is refused
        assert exc.message == "query is empty"
        return
    assert len(response.results) <= 10
    # no retriever failed on this text (a query without an informative word is told so)
    assert set(response.warnings) <= {NOTHING_TO_SEARCH}


@pytest.mark.parametrize("mode", ["keyword", "hybrid"])
def test_a_ten_megabyte_query_is_answered_quickly(shared_memory: Memory, mode: str) -> None:
    query = ('note "quoted" NOT near(x) \x00 ' * 400_000)[: 10 * 1024 * 1024]
    started = time.perf_counter()
    response = shared_memory.search(query, mode=mode, limit=5)
    assert time.perf_counter() - started < 30
    assert response.results  # the leading terms still match


# -- content limits and secrets on the CLI face (engine, MCP and TUI have their own) ------


def test_cli_add_enforces_the_content_limit(tmp_path: Path, home: Path) -> None:
    git_repo(tmp_path)
    too_long = run_cli("add", "-", cwd=tmp_path, home=home, stdin="x" * (MAX_CONTENT_LENGTH + 1))
    assert too_long.returncode == 1
    assert "10,001 characters; the limit is 10,000" in too_long.stderr
    assert too_long.stdout == ""
    empty = run_cli("add", "<private>only this</private>", cwd=tmp_path, home=home)
    assert empty.returncode == 1 and "content is empty" in empty.stderr


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_cli_add_rejects_a_secret_naming_its_pattern(tmp_path: Path, home: Path, kind: str) -> None:
    git_repo(tmp_path)
    out = run_cli("add", "-", cwd=tmp_path, home=home, stdin=f"deploy with {SECRETS[kind]} ok")
    assert out.returncode == 1
    assert f"({kind})" in out.stderr and "secret_policy" in out.stderr
    assert not (tmp_path / ".claude" / "memory" / "vectors").exists()  # nothing was stored


@pytest.mark.slow
def test_cli_redact_policy_and_private_blocks_never_store_the_secret(
    tmp_path: Path, home: Path
) -> None:
    git_repo(tmp_path)
    config = tmp_path / ".claude" / "memory.config.toml"
    config.parent.mkdir()
    config.write_text('secret_policy = "redact"\n', encoding="utf-8")
    text = f"token {SECRETS['github-pat']} and <private>my pin 4711</private> done"
    added = run_cli("add", "-", "--json", cwd=tmp_path, home=home, stdin=text)
    assert added.returncode == 0, added.stderr
    assert "redacted a likely secret (github-pat)" in added.stderr
    listed = run_cli("list", "--json", cwd=tmp_path, home=home)
    stored = listed.stdout
    assert SECRETS["github-pat"] not in stored and "4711" not in stored
    assert "[redacted: github-pat]" in stored and f"and {REDACTED} done" in stored
    raw = b"".join(p.read_bytes() for p in (tmp_path / ".claude").rglob("*") if p.is_file())
    assert SECRETS["github-pat"].encode() not in raw and b"4711" not in raw


_SURROUNDING = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60)


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(before=_SURROUNDING, after=_SURROUNDING, kind=st.sampled_from(sorted(SECRETS)))
def test_a_secret_anywhere_in_text_is_never_stored_silently(
    shared_memory: Memory, before: str, after: str, kind: str
) -> None:
    content = f"{before} {SECRETS[kind]} {after}"
    with pytest.raises(SecretDetectedError) as rejected:
        shared_memory.prepare_content(content, secret_policy="reject")
    assert "secret" in rejected.value.message
    text, kinds = shared_memory.prepare_content(content, secret_policy="redact")
    assert kinds and f"[redacted: {kinds[0]}]" in text
    assert SECRETS[kind] not in text
    assert "hunter2hunter2" not in text and "Q7XJ2M4PL9RT3VWZ" not in text


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(secret=st.text(min_size=1, max_size=80), before=_SURROUNDING)
def test_private_blocks_are_always_redacted(
    shared_memory: Memory, secret: str, before: str
) -> None:
    secret = secret.replace("</private>", "")
    content = f"{before} <PRIVATE>{secret}</Private> kept"
    text, _ = shared_memory.prepare_content(content, secret_policy="redact")
    assert text.endswith(f"{REDACTED} kept")
    if secret.strip() and secret not in before and secret not in "kept":
        assert secret.strip() not in text.replace(REDACTED, "")


# -- memory:// paths -----------------------------------------------------------------------

_SEGMENT = st.one_of(
    st.sampled_from(["..", ".", "", "%2e%2e", "%2F", "~", "/", "\\..", "..\\..", "a", "b.md"]),
    st.text(max_size=6),
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(_SEGMENT, min_size=1, max_size=6), absolute=st.booleans())
def test_no_knowledge_path_resolves_outside_the_folder(
    tmp_path_factory: pytest.TempPathFactory, parts: list[str], absolute: bool
) -> None:
    base = tmp_path_factory.getbasetemp() / "kpaths"
    knowledge = base / "project" / ".claude" / "knowledge"
    if not knowledge.exists():
        (knowledge / "a").mkdir(parents=True)
        (knowledge / "a" / "b.md").write_text("# inside\n", "utf-8")
        (base / "secret.md").write_text("outside\n", "utf-8")
        (knowledge / "escape").symlink_to(base)
        (knowledge / "link.md").symlink_to(base / "secret.md")
    raw = ("/" if absolute else "") + "/".join(parts)
    try:
        target = resolve(knowledge, raw)
    except KnowledgePathError as exc:
        assert exc.code in ("INVALID_INPUT", "NOT_FOUND")
        return
    assert target.is_relative_to(knowledge.resolve())


def test_symlinks_out_of_the_folder_are_refused(tmp_path: Path) -> None:
    knowledge = tmp_path / "k"
    knowledge.mkdir()
    (tmp_path / "secret.md").write_text("outside\n", "utf-8")
    (knowledge / "link.md").symlink_to(tmp_path / "secret.md")
    (knowledge / "dir").symlink_to(tmp_path)
    for raw in ("link.md", "dir/secret.md"):
        with pytest.raises(KnowledgePathError, match="outside"):
            resolve(knowledge, raw)


# -- the five export formats ---------------------------------------------------------------

_TRICKY = [",", '"', "'", "\n", "<", ">", "&", "|", "\\", "]]>", "<br>", "&lt;", "é", "😀", "中"]
_READABLE = st.lists(
    st.one_of(
        st.text(st.characters(exclude_categories=("Cc", "Cs", "Zl", "Zp")), max_size=8),
        st.sampled_from(_TRICKY),
    ),
    max_size=20,
).map("".join)


def _result(content: str) -> SearchResult:
    entry = Entry(id="e1", content=content, created_at="2026-01-01", updated_at="2026-01-01")
    return SearchResult(entry=entry, score=0.5)


def _md_blocks(output: str) -> list[str]:
    """The code blocks of a Markdown output, as a CommonMark parser reads them."""
    return [t.content for t in MarkdownIt("commonmark").parse(output) if t.type == "fence"]


@settings(max_examples=300)
@given(content=_READABLE)
def test_every_format_round_trips_what_it_promises_to_keep(content: str) -> None:
    """json, csv and xml keep any text (see tests/engine/test_export.py); md keeps it all,
    in its result's code block; text keeps one line of it (whitespace runs as one space), a
    reading format that shortens long content by design."""
    content = content.replace("\t", " ")
    if not content.strip():
        return
    assert _md_blocks(render([_result(content)], "md")) == [
        content if content.endswith("\n") else content + "\n"
    ]
    text_lines = render([_result(content)], "text").splitlines()
    one_line = re.sub(r"\s+", " ", content).strip()
    if len(one_line) <= TEXT_SNIPPET_CHARS:
        assert text_lines[-1] == "   " + one_line
