"""What one markdown or reStructuredText file of the knowledge folder or the project's
documentation becomes: its entries, ready for the indexer to diff against the ones it owns."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from engine.analyzer.doc_kinds import prose_dialect
from engine.core.errors import EngineError
from engine.core.models import Category, SecretPolicy, Source
from engine.core.validation import parse_category
from engine.guards.privacy import (
    REDACTED,
    find_secrets,
    redact_private,
    redact_secrets,
    redact_secrets_in_place,
)
from engine.markdown.chunking import MIN_PROSE_CHARS, Chunk, chunk_markdown
from engine.markdown.pages import fit_page, only_headings, page_title, split_to_fit
from engine.markdown.parse import blank_html_comments, parse_markdown
from engine.markdown.rst import as_markdown
from engine.services.aliases import promoted_sections
from engine.services.entries import NewEntry
from engine.services.index_report import IndexReport
from engine.services.sources import category_for

if TYPE_CHECKING:
    from engine.services.memory import Memory


def file_entries(
    memory: Memory,
    knowledge_dir: Path,
    rel: str,
    path: Path,
    text: str,
    report: IndexReport,
    cap: int | None = None,
) -> list[NewEntry]:
    """The entries one markdown or reStructuredText file becomes: parsed, cleaned of
    private blocks, comments and secrets whole, chunked along its sections, each chunk
    store-ready (its hash matches what is stored). A documentation page keeps at most
    ``cap`` chunks (its share of the memory, :func:`~engine.markdown.pages.page_cap`)."""
    parsed = parse_markdown(as_markdown(text, rel, prose_dialect(rel)), rel)  # line for line
    report.warnings += [(rel, warning) for warning in parsed.warnings]
    if not parsed.index:
        return []
    category = _category(knowledge_dir, path, parsed.category)
    promoted_at = str(parsed.front_matter.get("promoted_at") or "")
    appended = promoted_sections(text)  # sections promote appended to this file
    cfg, entries = memory.config, []
    allow = cfg.secret_allowlist
    body = _clean_body(parsed.body, rel, report, allow)
    keywords = _clean_keywords(parsed.keywords, rel, report, allow)
    note = path.is_relative_to(knowledge_dir)
    chunks = _chunks(memory, body, "" if note else rel, parsed.front_matter, cap)
    for chunk in chunks:
        line = chunk.line_start + parsed.body_line_offset
        when = next((t for first, last, t in appended if first <= line <= last), promoted_at)
        for piece in split_to_fit(chunk.content):
            if piece == REDACTED:
                continue  # nothing left to index once the private block is gone
            # Store-ready text (secrets redacted), so its hash matches what is stored.
            text, kinds = memory.prepare_content(piece, secret_policy=SecretPolicy.REDACT, path=rel)
            where = f"{rel}:{chunk.line_start + parsed.body_line_offset}"
            report.warnings += [(where, f"redacted a likely secret ({k})") for k in kinds]
            entries.append(
                NewEntry(
                    content=text,
                    category=category,
                    source=Source.MARKDOWN,
                    keywords=keywords,
                    file_path=rel,
                    section_title=redact_secrets(chunk.title, find_secrets(chunk.title, allow)),
                    line_start=line,
                    line_end=chunk.line_end + parsed.body_line_offset,
                    promoted_at=when,
                )
            )
    return entries


def _chunks(
    memory: Memory, body: str, page: str, front_matter: Mapping[str, object], cap: int | None
) -> list[Chunk]:
    """A file's chunks with words; those of a docs ``page`` (a note has none) past
    ``cap`` with its smallest adjacent sections merged (:func:`fit_page`)."""
    cfg = memory.config
    # A docs section of a link or a label joins a neighbour; a note may be one sentence.
    min_prose = MIN_PROSE_CHARS if page else 0
    # A docs page's title may live outside its text (front matter, the file's name).
    title = page_title(page, front_matter) if page else ""
    chunks = chunk_markdown(body, cfg.chunk_size, cfg.chunk_overlap, min_prose, page_title=title)
    chunks = [c for c in chunks if not only_headings(c.own_text)]  # not knowledge yet
    return fit_page(chunks, cap) if page and cap is not None else chunks


def _clean_keywords(
    keywords: Sequence[str], rel: str, report: IndexReport, allow: Collection[str]
) -> tuple[str, ...]:
    """Keywords are stored too: one that looks like a secret is dropped, and said so."""
    kept = tuple(k for k in keywords if not find_secrets(k, allow))
    if len(kept) < len(keywords):
        report.warnings.append((rel, "dropped a keyword that looks like a secret"))
    return kept


def _category(knowledge_dir: Path, path: Path, declared: str | None) -> Category:
    """By front matter or folder in the knowledge folder; a documentation source is
    general (its own front matter may use ``category`` for something else)."""
    if path.is_relative_to(knowledge_dir):
        return category_for(path.relative_to(knowledge_dir), declared)
    try:
        return parse_category(declared) if declared else Category.GENERAL
    except (ValueError, EngineError):
        return Category.GENERAL


def _clean_body(body: str, rel: str, report: IndexReport, allow: Collection[str]) -> str:
    """The text of a whole file, ``<private>`` blocks, secrets and comments taken out,
    line breaks kept: done before chunking, so that no chunk boundary can cut a key (or a
    private block) in two and leave half of it where no one looks for it."""
    body = blank_html_comments(redact_private(body, keep_lines=True))
    body, found = redact_secrets_in_place(body, allow, rel)
    if found:
        names = ", ".join(sorted({h.kind for h in found}))
        report.warnings.append((rel, f"redacted {len(found)} likely secret(s) ({names})"))
    return body
