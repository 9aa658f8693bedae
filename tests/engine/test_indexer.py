"""Integration tests of incremental indexing on real LanceDB and SQLite (fake embedder)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from fakes import FakeEmbedder
from read_back import from_the_store, of_file

from engine.core.config import Config
from engine.core.models import Category, Entry, Source
from engine.embedding.document import document_text
from engine.services import indexing
from engine.services.indexing import MAX_FILE_BYTES, Indexer, IndexReport
from engine.services.memory import Memory

KNOWLEDGE = ".claude/knowledge"

SECTIONS = {
    "Ingestion": "The ingestion pipeline reads events from kafka topics and batches them "
    "into parquet files every five minutes.",
    "Storage": "Parquet files land in minio buckets; the bucket layout is partitioned by "
    "tenant and by day.",
    "Querying": "Analysts query the lake through trino, which reads the hive metastore for "
    "the partition list.",
    "Retention": "A nightly zanzibar job deletes partitions older than ninety days unless "
    "the tenant has a legal hold.",
    "Monitoring": "Grafana dashboards watch consumer lag; an alert fires when lag exceeds "
    "ten thousand messages.",
    "Backups": "Snapshots of the metastore are copied to cold storage every Sunday night.",
}


def multi_section(sections: dict[str, str] = SECTIONS) -> str:
    """A markdown file with one heading and one paragraph per section."""
    return "# Data platform\n\n" + "".join(
        f"## {title}\n\n{text}\n\n" for title, text in sections.items()
    )


def write(root: Path, rel: str, text: str | bytes) -> Path:
    """Write a knowledge file (``rel`` is relative to the knowledge folder)."""
    path = root / KNOWLEDGE / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def project_rel(rel: str) -> str:
    """The project-relative path the indexer records for a knowledge file."""
    return f"{KNOWLEDGE}/{rel}"


def index(memory: Memory, **kwargs: bool) -> IndexReport:
    """One index run."""
    return Indexer(memory).run(**kwargs)


def found(memory: Memory, query: str) -> list[Entry]:
    """Entries a keyword search for ``query`` returns."""
    return [r.entry for r in memory.search(query, mode="keyword", limit=50).results]


def files_of(memory: Memory, query: str) -> set[str]:
    """Files whose entries a keyword search for ``query`` returns."""
    return {e.file_path for e in found(memory, query)}


def _under_headings(entry: Entry) -> str:
    """An entry's text without its heading-path line and heading lines."""
    lines = entry.content.split("\n")
    kept = [line for line in lines if line != entry.section_title and not line.startswith("#")]
    return "\n".join(kept).strip()


def hashes(memory: Memory, rel: str) -> set[str]:
    """Content hashes of the entries owned by one knowledge file."""
    return {e.content_hash for e in of_file(memory, project_rel(rel))}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small knowledge tree: architecture/, patterns/, gotchas.md, a plain note."""
    write(tmp_path, "architecture/platform.md", multi_section())
    write(
        tmp_path,
        "patterns/retry.md",
        "# Retry\n\nUse exponential backoff with jitter for flaky upstreams.\n",
    )
    write(
        tmp_path,
        "gotchas.md",
        "# Gotchas\n\nLanceDB needs double quotes around camelCase columns.\n",
    )
    write(
        tmp_path,
        "architecture/billing.md",
        "---\ncategory: domain\ntitle: Billing\n---\n# Billing\n\n"
        "Invoices are issued on the first business day of the month.\n",
    )
    write(tmp_path, "notes.md", "# Notes\n\nThe staging cluster sleeps at weekends.\n")
    return tmp_path


# --- a first run ---------------------------------------------------------------------------------


def test_categories_come_from_folders_file_names_and_front_matter(
    tree: Path, memory: Memory
) -> None:
    report = index(memory)

    assert report.errors == []
    assert report.files_total == report.files_processed == 5
    assert report.entries_created == memory.count() == report.embedded
    by_file = {e.file_path: e.category for e in memory.list()}
    assert by_file[project_rel("architecture/platform.md")] is Category.ARCHITECTURE
    assert by_file[project_rel("patterns/retry.md")] is Category.PATTERN
    assert by_file[project_rel("gotchas.md")] is Category.GOTCHA
    assert by_file[project_rel("architecture/billing.md")] is Category.DOMAIN  # front matter
    assert by_file[project_rel("notes.md")] is Category.GENERAL
    assert all(e.source is Source.MARKDOWN for e in memory.list())


def test_search_result_points_at_the_original_line(tree: Path, memory: Memory) -> None:
    index(memory)

    [hit] = found(memory, "invoices")
    lines = (tree / KNOWLEDGE / "architecture/billing.md").read_text().splitlines()
    # Four lines of front matter come before the heading: line 5 of the file, not line 1.
    assert hit.location == f"{project_rel('architecture/billing.md')}:5"
    assert lines[hit.line_start - 1] == "# Billing"
    assert "Invoices" in lines[hit.line_end - 1]

    [hit] = found(memory, "minio")
    lines = (tree / KNOWLEDGE / "architecture/platform.md").read_text().splitlines()
    assert lines[hit.line_start - 1] == "## Storage"
    assert hit.section_title == "Data platform > Storage"


def test_unchanged_files_are_skipped_and_nothing_is_embedded(tree: Path, memory: Memory) -> None:
    index(memory)
    count = memory.count()

    report = index(memory)

    assert report.files_skipped == report.files_total == 5
    assert report.files_processed == report.embedded == 0
    assert (report.entries_created, report.entries_updated, report.entries_deleted) == (0, 0, 0)
    assert memory.count() == count


# --- edits ---------------------------------------------------------------------------------------


def test_editing_one_paragraph_re_embeds_only_the_changed_chunks(
    tree: Path, memory: Memory
) -> None:
    index(memory)
    before = hashes(memory, "architecture/platform.md")
    total = memory.count()
    edited = dict(SECTIONS, Retention="A weekly kilimanjaro sweep archives partitions to tape.")
    write(tree, "architecture/platform.md", multi_section(edited))

    report = index(memory)

    after = hashes(memory, "architecture/platform.md")
    changed = after - before
    assert report.changed_files == [project_rel("architecture/platform.md")]
    assert report.files_processed == 1 and report.files_skipped == 4
    assert report.embedded == len(changed) == report.entries_created
    assert 1 <= report.embedded < len(after) // 2
    assert report.entries_deleted == len(before - after)
    assert memory.count() == total
    assert found(memory, "zanzibar") == []
    assert files_of(memory, "kilimanjaro") == {project_rel("architecture/platform.md")}


def test_inserting_lines_at_the_top_shifts_line_numbers_without_re_embedding(
    tree: Path, memory: Memory
) -> None:
    index(memory)
    old_lines = {e.content_hash: e.line_start for e in found(memory, "grafana")}
    before = hashes(memory, "architecture/platform.md")
    prefix = "Owner: the platform team.\n\n\n"
    write(tree, "architecture/platform.md", prefix + multi_section())

    report = index(memory)

    after = hashes(memory, "architecture/platform.md")
    assert report.files_processed == 1
    assert report.entries_updated > 0
    assert report.embedded == len(after - before) <= 2  # the new paragraph (and its neighbour)
    [hit] = found(memory, "grafana")
    assert hit.line_start == old_lines[hit.content_hash] + 3
    text = (tree / KNOWLEDGE / "architecture/platform.md").read_text().splitlines()
    assert text[hit.line_start - 1] == "## Monitoring"


def test_deleting_a_file_removes_its_entries_only(tree: Path, memory: Memory) -> None:
    index(memory)
    total = memory.count()
    platform = len(hashes(memory, "architecture/platform.md"))
    (tree / KNOWLEDGE / "architecture/platform.md").unlink()

    report = index(memory)

    assert report.files_removed == 1
    assert report.entries_deleted == platform
    assert report.embedded == 0
    assert memory.count() == total - platform
    assert of_file(memory, project_rel("architecture/platform.md")) == []
    assert found(memory, "minio") == []
    assert files_of(memory, "backoff") == {project_rel("patterns/retry.md")}
    assert files_of(memory, "invoices") == {project_rel("architecture/billing.md")}


SHARED = "# Shared\n\nThe flux capacitor needs exactly 1.21 gigawatts to work.\n"


@pytest.mark.parametrize("change", ["edit", "delete"])
def test_a_paragraph_in_two_files_survives_a_change_to_one_of_them(
    tmp_path: Path, memory: Memory, change: str
) -> None:
    write(tmp_path, "a.md", SHARED + "\n# Only in a\n\nAlpha alone talks about sprockets.\n")
    write(tmp_path, "b.md", SHARED + "\n# Only in b\n\nBeta alone talks about widgets.\n")
    index(memory)
    assert files_of(memory, "capacitor") == {project_rel("a.md"), project_rel("b.md")}

    if change == "edit":
        write(tmp_path, "a.md", "# Only in a\n\nAlpha alone talks about sprockets.\n")
    else:
        (tmp_path / KNOWLEDGE / "a.md").unlink()
    report = index(memory)

    assert report.errors == []
    assert files_of(memory, "capacitor") == {project_rel("b.md")}
    assert files_of(memory, "widgets") == {project_rel("b.md")}
    assert files_of(memory, "sprockets") == ({project_rel("a.md")} if change == "edit" else set())


# --- run options ---------------------------------------------------------------------------------


def test_force_re_chunks_every_file_but_embeds_nothing_new(tree: Path, memory: Memory) -> None:
    index(memory)
    count = memory.count()
    ids = {e.id for e in memory.list()}

    report = index(memory, force=True)

    assert report.files_processed == report.files_total == 5
    assert report.files_skipped == 0
    assert report.embedded == 0
    assert report.entries_created == report.entries_deleted == 0
    assert memory.count() == count
    assert {e.id for e in memory.list()} == ids
    assert found(memory, "minio")


def test_dry_run_reports_and_writes_nothing(tree: Path, memory: Memory) -> None:
    report = index(memory, dry_run=True)

    assert report.dry_run
    assert report.files_processed == 5
    assert sorted(report.changed_files) == sorted(
        project_rel(r)
        for r in (
            "architecture/platform.md",
            "architecture/billing.md",
            "patterns/retry.md",
            "gotchas.md",
            "notes.md",
        )
    )
    assert report.entries_created > 0
    assert report.embedded == 0
    assert memory.count() == 0
    assert not memory.paths.meta_path.exists()


def test_dry_run_after_an_edit_leaves_the_old_text(tree: Path, memory: Memory) -> None:
    index(memory)
    meta = memory.paths.meta_path.read_text()
    write(tree, "notes.md", "# Notes\n\nThe staging cluster now runs all week.\n")

    report = index(memory, dry_run=True)

    assert report.changed_files == [project_rel("notes.md")]
    assert report.embedded == 0
    assert memory.paths.meta_path.read_text() == meta
    assert files_of(memory, "weekends") == {project_rel("notes.md")}
    assert index(memory).files_processed == 1  # the real run still sees the change
    assert found(memory, "weekends") == []


def test_freshness_counts_what_a_run_would_index_and_writes_nothing(
    tree: Path, memory: Memory
) -> None:
    before = Indexer(memory).freshness()
    assert (before.files_total, before.outdated) == (5, 5)  # never indexed
    index(memory)
    assert Indexer(memory).freshness().outdated == 0
    write(tree, "notes.md", "# Notes\n\nThe staging cluster now runs all week.\n")
    write(tree, "new.md", "# New\n\nA page written since.\n")
    (tree / KNOWLEDGE / "gotchas.md").unlink()
    meta = memory.paths.meta_path.read_text()

    fresh = Indexer(memory).freshness()

    assert (fresh.files_total, fresh.outdated) == (5, 3)  # edited, new, and removed
    assert memory.paths.meta_path.read_text() == meta
    report = index(memory)
    assert report.files_processed + report.files_removed == fresh.outdated
    assert Indexer(memory).freshness().outdated == 0


# --- bad input -----------------------------------------------------------------------------------

BAD_FILES: dict[str, bytes] = {
    "binary": b"# Image\n\x00\x01\x02\x89PNG\x00\x00",
    "latin-1": "# Café\n\nCrème brûlée recipe.\n".encode("latin-1"),
    "oversized": b"# Huge\n\n" + b"lorem ipsum dolor sit amet\n" * (MAX_FILE_BYTES // 27 + 1),
}


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_a_bad_file_is_reported_the_others_indexed_and_a_fix_is_picked_up(
    tree: Path, memory: Memory, kind: str
) -> None:
    write(tree, "broken.md", BAD_FILES[kind])

    report = index(memory)

    assert [rel for rel, _ in report.errors] == [project_rel("broken.md")]
    assert report.files_processed == 5
    assert files_of(memory, "minio") == {project_rel("architecture/platform.md")}
    assert of_file(memory, project_rel("broken.md")) == []

    write(tree, "broken.md", "# Fixed\n\nThe broken file now talks about pelicans.\n")
    report = index(memory)

    assert report.errors == []
    assert report.changed_files == [project_rel("broken.md")]
    assert files_of(memory, "pelicans") == {project_rel("broken.md")}


def test_a_file_that_turns_bad_keeps_its_previous_entries(tree: Path, memory: Memory) -> None:
    index(memory)
    write(tree, "notes.md", BAD_FILES["binary"])

    report = index(memory)

    assert [rel for rel, _ in report.errors] == [project_rel("notes.md")]
    assert files_of(memory, "weekends") == {project_rel("notes.md")}


def test_malformed_markdown_is_indexed(tmp_path: Path, memory: Memory) -> None:
    write(
        tmp_path,
        "odd.md",
        "###### \n#\n| a | b\n|---\n```python\ndef unclosed_fence():\n    return 'quokka'\n",
    )

    report = index(memory)

    assert report.errors == []
    assert files_of(memory, "quokka") == {project_rel("odd.md")}


def test_broken_front_matter_warns_and_the_file_is_still_indexed(
    tmp_path: Path, memory: Memory
) -> None:
    write(tmp_path, "patterns/cache.md", "---\ncategory: [oops\n---\n# Cache\n\nWarm the lru.\n")

    report = index(memory)

    assert report.errors == []
    assert [rel for rel, _ in report.warnings] == [project_rel("patterns/cache.md")]
    assert "front matter" in report.warnings[0][1]
    [hit] = found(memory, "lru")
    assert hit.category is Category.PATTERN  # the folder decides when front matter is broken
    assert hit.line_start == 4


def test_unknown_front_matter_category_is_an_error_for_that_file(
    tree: Path, memory: Memory
) -> None:
    write(tree, "odd.md", "---\ncategory: wizardry\n---\n# Odd\n\nSpells.\n")

    report = index(memory)

    assert [rel for rel, _ in report.errors] == [project_rel("odd.md")]
    assert "wizardry" in report.errors[0][1]
    assert report.files_processed == 5


# --- directives ----------------------------------------------------------------------------------


def test_vector_index_false_files_are_not_indexed(tmp_path: Path, memory: Memory) -> None:
    write(tmp_path, "draft.md", "<!-- vector-index: false -->\n# Draft\n\nSecret roadmap ideas.\n")
    write(tmp_path, "kept.md", "# Kept\n\nPublic roadmap ideas.\n")

    report = index(memory)

    assert report.errors == []
    assert files_of(memory, "roadmap") == {project_rel("kept.md")}


def test_opting_out_later_removes_the_file_entries(tmp_path: Path, memory: Memory) -> None:
    write(tmp_path, "draft.md", "# Draft\n\nRoadmap ideas for the hovercraft.\n")
    index(memory)
    assert files_of(memory, "hovercraft") == {project_rel("draft.md")}

    write(
        tmp_path,
        "draft.md",
        "# Draft\n<!-- vector-index: false -->\n\nRoadmap ideas for the hovercraft.\n",
    )
    report = index(memory)

    assert report.entries_deleted == 1
    assert found(memory, "hovercraft") == []
    assert memory.count() == 0


def test_keywords_directive_is_stored_and_searchable(tmp_path: Path, memory: Memory) -> None:
    write(
        tmp_path,
        "patterns/retry.md",
        "# Retry\n<!-- keywords: flamingo, resilience -->\n\nUse backoff with jitter.\n",
    )

    index(memory)

    [hit] = found(memory, "flamingo")
    assert hit.keywords == ("flamingo", "resilience")
    assert "flamingo" not in hit.content
    assert "<!--" not in hit.content


# --- settings and derived files ------------------------------------------------------------------


def test_changing_chunk_size_re_chunks_every_file(tree: Path, memory: Memory) -> None:
    index(memory)
    before = memory.count()
    memory.close()
    config: Config = dataclasses.replace(memory.config, chunk_size=100, chunk_overlap=0)

    with Memory.open(tree, config=config, embedder=FakeEmbedder()) as small:
        report = index(small)

        assert report.files_processed == report.files_total == 5
        assert report.files_skipped == 0
        assert small.count() > before
        # The text under the headings fits; a chunk may open with its heading path, and a
        # heading is never left alone at the end of a chunk.
        assert all(len(_under_headings(e)) <= 100 for e in small.list())
        assert index(small).files_skipped == 5


def test_a_change_to_a_reader_re_chunks_every_file_once_without_embedding_again(
    tree: Path,
    memory: Memory,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    """The chunker's version is the readers' source: an upgrade that reads files otherwise
    re-chunks them all on the next run, with no number to bump; unchanged chunks keep
    their vectors."""
    index(memory)
    ids = sorted(e.id for e in memory.list())
    reader = tmp_path_factory.mktemp("readers") / "reader.py"
    reader.write_text("READ = 1\n", encoding="utf-8")
    monkeypatch.setattr(indexing, "READERS", (reader,))
    request.addfinalizer(indexing.chunker_version.cache_clear)  # the real readers' again
    indexing.chunker_version.cache_clear()
    first = indexing.chunker_version()
    reader.write_text("READ = 2\n", encoding="utf-8")  # a reader changed
    indexing.chunker_version.cache_clear()
    assert indexing.chunker_version() != first

    report = index(memory)

    assert report.files_processed == report.files_total == 5
    assert report.embedded == report.entries_created == report.entries_deleted == 0
    assert sorted(e.id for e in memory.list()) == ids
    assert index(memory).files_skipped == 5  # once


def test_deleted_meta_json_costs_a_rescan_but_no_embedding(tree: Path, memory: Memory) -> None:
    index(memory)
    ids = sorted(e.id for e in memory.list())
    memory.paths.meta_path.unlink()

    report = index(memory)

    assert report.files_processed == 5
    assert report.embedded == report.entries_created == report.entries_deleted == 0
    assert sorted(e.id for e in memory.list()) == ids
    assert memory.paths.meta_path.exists()
    assert index(memory).files_skipped == 5


def test_corrupt_meta_json_warns_and_is_rebuilt(tree: Path, memory: Memory) -> None:
    index(memory)
    count = memory.count()
    memory.paths.meta_path.write_text("{not json")

    report = index(memory)

    assert any("meta.json" in where for where, _ in report.warnings)
    assert report.embedded == 0
    assert memory.count() == count
    assert index(memory).files_skipped == 5


def test_a_secret_is_redacted_with_a_warning_and_never_stored(tree: Path, memory: Memory) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    write(tree, "gotchas/deploy.md", f"# Deploy\n\nThe deploy bot uses token {token} today.\n")

    report = index(memory)

    assert report.errors == []
    assert any(
        where.startswith(project_rel("gotchas/deploy.md")) and "secret" in message
        for where, message in report.warnings
    )
    [hit] = found(memory, "deploy bot")
    assert token not in hit.content
    assert "[redacted: " in hit.content
    assert all(token not in e.content for e in from_the_store(memory).values())
    assert found(memory, token) == []
    # The redacted text is what was stored, so an unchanged file stays unchanged.
    assert index(memory).files_skipped == 6


def test_a_secret_in_a_heading_or_keyword_is_not_stored_either(
    tmp_path: Path, memory: Memory
) -> None:
    token = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
    write(
        tmp_path,
        "a.md",
        f"# Token {token}\n\nParent text.\n\n## Child\n\nChild text about otters.\n"
        f"<!-- keywords: {token}, otters -->\n",
    )

    report = index(memory)

    assert report.errors == []
    stored = list(from_the_store(memory).values())
    assert len(stored) == 2
    for entry in stored:
        assert token not in entry.content + entry.section_title + " ".join(entry.keywords)
        assert entry.keywords == ("otters",)
    assert any("keyword" in message for _, message in report.warnings)


def test_private_blocks_are_redacted_even_when_the_chunker_cuts_them(
    tmp_path: Path, memory: Memory
) -> None:
    write(
        tmp_path,
        "ops.md",
        "<private>the whole preamble is private</private>\n\n"
        "# Intro\n\nOps notes about lynxes.\n\n"
        "<private>\n# Credentials\n\ndb password hunter2\n</private>\n\n"
        "# After\n\nThe rota lives in the wiki.\n",
    )

    report = index(memory)

    assert report.errors == []
    stored = [e.content for e in from_the_store(memory).values()]
    assert not any("hunter2" in c or "preamble" in c or "private>" in c for c in stored)
    assert found(memory, "hunter2") == []
    [after] = found(memory, "rota")
    lines = (tmp_path / KNOWLEDGE / "ops.md").read_text().splitlines()
    assert lines[after.line_start - 1] == "# After"  # line numbers still match the file


# --- moves, mixed sources, removals --------------------------------------------------------------


def test_renaming_a_file_moves_its_entries_without_embedding(tree: Path, memory: Memory) -> None:
    index(memory)
    count = memory.count()
    (tree / KNOWLEDGE / "notes.md").rename(tree / KNOWLEDGE / "staging.md")

    report = index(memory)

    assert report.embedded == 0
    assert report.files_removed == 1
    assert memory.count() == count
    [hit] = found(memory, "weekends")
    assert hit.file_path == project_rel("staging.md")
    assert hit.category is Category.GENERAL


def test_moving_a_file_to_another_category_embeds_its_chunks_again(
    tree: Path, memory: Memory
) -> None:
    """The category is embedded with the text (engine/embedding/document.py)."""
    index(memory)
    count = memory.count()
    (tree / KNOWLEDGE / "notes.md").rename(tree / KNOWLEDGE / "patterns" / "notes.md")

    report = index(memory)

    assert report.embedded == 1  # the file's one chunk, now labelled "pattern"
    assert memory.count() == count
    [hit] = found(memory, "weekends")
    assert (hit.file_path, hit.category) == (project_rel("patterns/notes.md"), Category.PATTERN)
    assert document_text(hit).startswith("pattern\n")


def test_changing_only_the_category_updates_entries_in_place(tree: Path, memory: Memory) -> None:
    index(memory)
    [before] = found(memory, "weekends")
    write(
        tree,
        "notes.md",
        "---\ncategory: gotcha\n---\n# Notes\n\nThe staging cluster sleeps at weekends.\n",
    )

    report = index(memory)

    assert report.entries_created == 0
    assert report.embedded == report.entries_updated == 1  # the category is embedded too
    [after] = found(memory, "weekends")
    assert (after.id, after.category, after.line_start) == (before.id, Category.GOTCHA, 4)
    assert memory.count(category="gotcha") == 2


def test_a_manual_entry_with_the_same_text_survives_the_file(
    tmp_path: Path, memory: Memory
) -> None:
    text = "# Shared\n\nThe flux capacitor needs exactly 1.21 gigawatts to work."
    manual = memory.add(text, category="gotcha").entry
    write(tmp_path, "a.md", text + "\n")
    index(memory)
    assert memory.count() == 2

    (tmp_path / KNOWLEDGE / "a.md").unlink()
    index(memory)

    assert [e.id for e in found(memory, "capacitor")] == [manual.id]


def test_entries_of_other_sources_that_cite_the_file_are_not_the_indexers(
    tmp_path: Path, memory: Memory
) -> None:
    """A discovery entry that cites a documentation file (an R package's dependencies,
    read from its ``DESCRIPTION``) is the analysis's to replace: indexing the file, editing
    it, re-indexing it with ``force`` or deleting it leaves that entry where it is."""
    write(tmp_path, "DESCRIPTION.md", "# Package\n\nThe frobnicator package.\n")
    rel = project_rel("DESCRIPTION.md")
    cited = memory.add(
        "Dependencies: R (>= 3.6), glue, stringi (from the zanzibar DESCRIPTION file)",
        category=Category.DISCOVERY,
        source=Source.DISCOVERY,
        file_path=rel,
    ).entry
    index(memory)
    write(tmp_path, "DESCRIPTION.md", "# Package\n\nThe frobnicator package, edited.\n")
    index(memory)
    index(memory, force=True)
    assert {e.source for e in of_file(memory, rel)} == {Source.MARKDOWN, Source.DISCOVERY}
    (tmp_path / KNOWLEDGE / "DESCRIPTION.md").unlink()
    index(memory)

    assert [e.id for e in of_file(memory, rel)] == [cited.id]
    assert [e.id for e in found(memory, "zanzibar")] == [cited.id]


def test_a_file_deleted_while_meta_json_was_lost_is_still_removed(
    tree: Path, memory: Memory
) -> None:
    index(memory)
    memory.paths.meta_path.unlink()
    (tree / KNOWLEDGE / "gotchas.md").unlink()

    report = index(memory)

    assert report.files_removed == 1
    assert found(memory, "camelCase") == []


def test_dry_run_reports_a_deleted_file_but_keeps_its_entries(tree: Path, memory: Memory) -> None:
    index(memory)
    count = memory.count()
    (tree / KNOWLEDGE / "gotchas.md").unlink()

    report = index(memory, dry_run=True)

    assert report.files_removed == 1 and report.entries_deleted == 1
    assert memory.count() == count
    assert index(memory).files_removed == 1
    assert memory.count() == count - 1


def test_emptying_a_file_removes_its_entries(tree: Path, memory: Memory) -> None:
    index(memory)
    write(tree, "gotchas.md", "")

    report = index(memory)

    assert report.errors == []
    assert report.entries_deleted == 1
    assert found(memory, "camelCase") == []
    assert index(memory).files_skipped == 5


def test_hidden_and_non_markdown_files_are_ignored(tmp_path: Path, memory: Memory) -> None:
    write(tmp_path, ".drafts/wip.md", "# WIP\n\nHalf-baked wombats.\n")
    write(tmp_path, "diagram.txt", "wombats in plain text\n")
    write(tmp_path, "real.md", "# Real\n\nFinished wombats.\n")

    report = index(memory)

    assert report.files_total == 1
    assert files_of(memory, "wombats") == {project_rel("real.md")}


def test_comments_and_bare_headings_are_not_indexed(tmp_path: Path, memory: Memory) -> None:
    write(
        tmp_path,
        "gotchas.md",
        "# Gotchas\n\n<!-- Example:\n## Tests fail from a subdirectory\nRun from the root.\n-->\n",
    )
    write(tmp_path, "notes.md", "# Notes\n\n<!-- hidden -->\nThe cache lives in redis.\n")

    report = index(memory)

    assert report.errors == []
    assert of_file(memory, project_rel("gotchas.md")) == []
    [note] = of_file(memory, project_rel("notes.md"))
    assert "hidden" not in note.content and "redis" in note.content
    assert note.line_start == 1
    assert found(memory, "subdirectory") == []


OLD_GOTCHAS_TEMPLATE = """# Gotchas

Things that surprised someone on this project, so they surprise nobody again.
One section per gotcha: what happens, why, and what to do instead.

<!-- Example:
## Tests fail when run from a subdirectory

The fixtures use paths relative to the repository root. Run `pytest` from the root.
-->
"""


def test_the_templates_own_text_is_never_indexed(tmp_path: Path, memory: Memory) -> None:
    templates = Path(__file__).parents[2] / "app" / "templates" / "knowledge"
    write(tmp_path, "gotchas.md", (templates / "gotchas.md").read_text(encoding="utf-8"))
    write(tmp_path, "README.md", (templates / "README.md").read_text(encoding="utf-8"))
    # A repository initialised with the old template, where the intro was a plain paragraph.
    old = OLD_GOTCHAS_TEMPLATE + "\n## Ports\n\nThings that surprised us: port 80 is taken.\n"
    write(tmp_path, "old/gotchas.md", old)

    index(memory)

    assert of_file(memory, project_rel("gotchas.md")) == []
    assert of_file(memory, project_rel("README.md")) == []
    [entry] = of_file(memory, project_rel("old/gotchas.md"))
    assert entry.section_title == "Gotchas > Ports"
    assert "surprise nobody" not in entry.content
    assert "port 80 is taken" in entry.content


def test_each_chunk_carries_its_heading_path_for_keyword_search(
    tmp_path: Path, memory: Memory
) -> None:
    body = " ".join(f"Step {i} compiles the wombat module." for i in range(60))
    write(tmp_path, "guide.md", f"# Guide\n\n## Install\n\n### From source\n\n{body}\n")

    index(memory)

    entries = of_file(memory, project_rel("guide.md"))
    first, *rest = sorted(entries, key=lambda e: e.line_start)
    assert rest
    assert {e.section_title for e in [first, *rest]} == {"Guide > Install > From source"}
    # The path opens the text that is embedded and searched, even mid-section; the first
    # chunk is cited at its own heading, below the bare parents that the path shows.
    assert first.content.startswith("Guide > Install > From source\n\n### From source\n\nStep 0")
    assert first.line_start == 5
    assert all(e.content.startswith("Guide > Install > From source\n\n") for e in rest)
    assert len(found(memory, "guide install wombat")) == len(rest) + 1
