"""No single file holds more than 15 % of a memory's entries (issue 34): a docs page past
its share has its smallest adjacent sections merged, headings kept; a source file's cap
counts its own summary and gives way to the share in a small project."""

from __future__ import annotations

from pathlib import Path

from engine.analyzer import definitions
from engine.markdown.chunking import MIN_PROSE_CHARS, chunk_markdown
from engine.markdown.pages import MAX_PAGE_SHARE, fit_page, page_cap
from engine.services.indexing import Indexer
from engine.services.memory import Memory

WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
]


def _page(sections: int, long_every: int = 5) -> str:
    """A README of ``sections`` sections, every ``long_every``-th one long."""
    out = ["# Project\n\nA project that does one thing well for its users.\n"]
    for i in range(sections):
        words = 200 if i % long_every == 0 else 25
        body = " ".join(WORDS[(i + k) % len(WORDS)] for k in range(words))
        out.append(f"## Topic{i} heading\n\n{body}\n")
    return "\n".join(out)


def test_the_cap_is_the_largest_count_within_the_share() -> None:
    for others in (10, 47, 65, 500):
        cap = page_cap(others, files=20)
        assert cap is not None and cap >= 1
        assert cap <= MAX_PAGE_SHARE * (others + cap) or cap == 1
        assert cap + 1 > MAX_PAGE_SHARE * (others + cap + 1)  # one more is past it
    assert page_cap(500, files=5) is None  # six files cannot each keep under 15 %


def test_a_memory_of_a_few_files_keeps_its_pages_whole() -> None:
    """Under twice ``1 / share`` files an average file holds over half the share: no cap
    (a project's first run indexes a handful of docs and must not merge its README)."""
    assert page_cap(500, files=12) is None  # 13 files: an average one holds 7.7 %
    assert page_cap(500, files=13) is not None  # 14 files: the share singles a page out


def test_the_smallest_neighbours_merge_and_every_heading_stays() -> None:
    chunks = chunk_markdown(_page(12), 2000, 0, 0)
    assert len(chunks) > 6
    fitted = fit_page(chunks, 6)
    assert len(fitted) == 6
    text = "\n".join(c.content for c in fitted)
    assert all(f"Topic{i} heading" in text for i in range(12))  # nothing dropped
    assert fitted[0].line_start == chunks[0].line_start
    assert fitted[-1].line_end == chunks[-1].line_end
    longest = max(chunks, key=lambda c: len(c.content))
    assert longest in fitted  # the large sections stay as they were; the small ones merged
    assert fit_page(chunks, len(chunks)) == chunks


def test_a_long_sections_pieces_merge_before_two_short_sections_do() -> None:
    """A README of short sections over a long generated table (terraform-docs' inputs):
    the table's pieces, cut apart by the chunk size, give way first; every short section
    keeps its own entry, whose vector embeds it."""
    rows = "\n".join(
        f"| `input_{i}` | {' '.join(WORDS[: 1 + i % 9])} | `string` |" for i in range(400)
    )
    page = (
        _page(6, long_every=99)
        + f"\n## Inputs\n\n| Name | Description | Type |\n|---|---|---|\n{rows}\n"
    )
    chunks = chunk_markdown(page, 2000, 0, 0)
    short = [c for c in chunks if c.title.startswith("Project > Topic")]
    table = [c for c in chunks if c.title == "Project > Inputs"]
    assert len(short) == 6 and len(table) > 6
    fitted = fit_page(chunks, len(chunks) - len(table) // 2)
    assert all(c in fitted for c in short)  # each short section still an entry of its own
    assert all(c.title == "Project > Inputs" for c in fitted if c not in chunks)
    text = "\n".join(c.content for c in fitted)
    assert all(f"`input_{i}`" in text for i in range(400))  # no row dropped


def test_a_readme_beside_other_entries_keeps_its_share(tmp_path: Path, memory: Memory) -> None:
    (tmp_path / "README.md").write_text(_page(20))
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(40):
        (docs / f"page{i}.md").write_text(f"# Page {i}\n\nPage {i} explains one more thing.\n")
    assert Indexer(memory).run().errors == []
    entries = memory.list(limit=10_000)
    readme = [e for e in entries if e.file_path == "README.md"]
    assert 1 < len(readme) <= MAX_PAGE_SHARE * len(entries)
    for i in (3, 17):  # a merged section is still found by its heading
        found = memory.search(f"Topic{i}", mode="keyword").results
        assert found and found[0].entry.file_path == "README.md"
    again = Indexer(memory).run(force=True)  # counted the same way on every run
    assert (again.entries_created, again.entries_deleted) == (0, 0)


def test_a_page_among_a_few_files_is_not_merged(tmp_path: Path, memory: Memory) -> None:
    (tmp_path / "README.md").write_text(_page(20))
    (tmp_path / "CHANGES.md").write_text("# Changes\n\nVersion one fixed every bug there was.\n")
    assert Indexer(memory).run().errors == []
    readme = [e for e in memory.list(limit=10_000) if e.file_path == "README.md"]
    assert len(readme) == len(chunk_markdown(_page(20), 2000, 0, MIN_PROSE_CHARS))


def test_a_knowledge_note_is_never_merged(tmp_path: Path, memory: Memory) -> None:
    notes = tmp_path / ".claude" / "knowledge"
    notes.mkdir(parents=True)
    (notes / "design.md").write_text(_page(20))
    assert Indexer(memory).run().errors == []
    assert len(memory.list(limit=10_000)) == len(chunk_markdown(_page(20), 2000, 0, 0))


def test_the_chunk_floor_gives_way_to_the_share_in_a_small_project() -> None:
    counts = [40, 10, 10, 6]
    cap = definitions.file_cap(counts, others=20, own=1)
    assert cap is not None and cap < definitions.MIN_FILE_CAP
    kept = sum(min(n, cap) for n in counts)
    assert cap + 1 <= definitions.MAX_ENTRY_SHARE * (kept + 20)  # its summary counted
    big = definitions.file_cap(counts, others=2_000, own=1)  # a large project: the floor
    assert big is not None and big >= definitions.MIN_FILE_CAP


def test_a_module_past_its_share_at_the_largest_size_keeps_every_definition(
    tmp_path: Path,
) -> None:
    """A small project whose one module is most of it (more-itertools' ``more.py``): cut
    as coarse as the sizes go, it is still past its share, and it keeps every definition
    (it used to keep its first few chunks, the rest of the module missing)."""
    body = "\n".join(
        f'    """Tell {WORDS[k % len(WORDS)]} from the others, step {k}."""' for k in range(12)
    )
    module = "\n\n\n".join(
        f"def recipe_{i}(items):\n{body}\n    return items[{i}]" for i in range(300)
    )
    (tmp_path / "big.py").write_text(module + "\n")
    for name in ("one", "two", "three"):
        (tmp_path / f"{name}.py").write_text(f'def {name}():\n    """The {name} helper."""\n')
    drafts = definitions.definition_drafts(tmp_path, ["big.py", "one.py", "two.py", "three.py"])
    big = [d for d in drafts if d.file_path == "big.py"]
    cap = definitions.file_cap([len(big), 1, 1, 1])
    assert cap is not None and len(big) > cap  # past its share: the sizes ran out
    text = "".join(d.content for d in big)
    assert all(f"def recipe_{i}(" in text for i in range(300))  # none left out


def test_a_project_past_the_budget_keeps_every_files_definitions(tmp_path: Path) -> None:
    """Past the project's budget of chunks every file is cut coarser: the files last in
    the budget's order keep their definitions too (redis kept 49 of its 219 files)."""
    body = "\n".join(f"    # {WORDS[k % len(WORDS)]} is weighed at step {k}." for k in range(14))
    files = []
    for f in range(12):
        funcs = [f"def f{f}_{i}(x):\n{body}\n    return x + {i}" for i in range(8)]
        (tmp_path / f"m{f:02}.py").write_text("\n\n\n".join(funcs) + "\n")
        files.append(f"m{f:02}.py")
    fine = sum(
        len(definitions.file_drafts(rel, (tmp_path / rel).read_text(), "Python")) for rel in files
    )
    assert fine > 40  # the finest cut is past the budget
    drafts = definitions.definition_drafts(tmp_path, files, budget=40)
    assert len(drafts) <= 40
    text = "".join(d.content for d in drafts)
    assert all(f"def f{f}_{i}(" in text for f in range(12) for i in range(8))  # every file
