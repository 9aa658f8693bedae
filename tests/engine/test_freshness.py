"""Stale-knowledge flags: entries that cite code are flagged when that code changes."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import FakeEmbedder

from engine.core.models import Source
from engine.freshness.citations import CITATIONS_FILE, mentioned_names, mentioned_paths
from engine.freshness.code_symbols import defined_names
from engine.services.discovery import run_discovery
from engine.services.health import diagnose
from engine.services.health_report import Status
from engine.services.memory import Memory

BILLING = '''"""Billing."""


def compute_total(items):
    """Sum of the prices."""
    return sum(i.price for i in items)


def apply_discount(total, rate):
    """Reduce a total."""
    return total * (1 - rate)
'''


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    (root / "shop").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "shop" / "billing.py").write_text(BILLING, encoding="utf-8")
    (root / "shop" / "__init__.py").write_text("", encoding="utf-8")
    return root


def _search(memory: Memory, query: str) -> dict[str, tuple[bool, str]]:
    results = memory.search(query, mode="keyword", limit=20).results
    return {r.entry.id: (r.stale, r.stale_reason) for r in results}


def test_a_note_citing_a_deleted_function_is_flagged_stale(project: Path) -> None:
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        note = memory.add(
            "compute_total() in shop/billing.py rounds each price before summing",
            source="session",
        ).entry
        plain = memory.add("Deploys happen on Tuesdays", source="session").entry

        assert _search(memory, "rounds price")[note.id] == (False, "")

        source = project / "shop" / "billing.py"
        source.write_text(BILLING.replace("def compute_total", "def total_of"), encoding="utf-8")
        stale, reason = _search(memory, "rounds price")[note.id]

        assert stale is True
        assert reason == "compute_total is no longer defined in shop/billing.py"
        assert [(e.id, why) for e, why in memory.stale_entries()] == [(note.id, reason)]
        assert _search(memory, "deploys tuesdays")[plain.id] == (False, "")


def test_a_symbol_named_without_a_path_is_found_through_discovery(project: Path) -> None:
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        run_discovery(memory)
        note = memory.add("`apply_discount` takes the rate as a fraction", source="session")

        source = project / "shop" / "billing.py"
        source.write_text(BILLING.replace("apply_discount", "discounted"), encoding="utf-8")
        assert memory.stale_reasons([note.entry.id]) == {
            note.entry.id: "apply_discount is no longer defined in shop/billing.py"
        }

        source.unlink()
        stale = memory.stale_reasons([note.entry.id])
        assert stale == {note.entry.id: "shop/billing.py no longer exists"}


def test_a_changed_file_makes_its_notes_stale_and_an_edit_refreshes_them(project: Path) -> None:
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        note = memory.add("shop/billing.py has no tax handling yet", source="manual").entry
        path = project / "shop" / "billing.py"
        path.write_text(BILLING + "\nTAX = 0.2\n", encoding="utf-8")

        assert memory.stale_reasons([note.id]) == {
            note.id: "shop/billing.py changed since this was written"
        }

        memory.update(note.id, content="shop/billing.py applies a flat TAX of 20 %")
        assert memory.stale_reasons([note.id]) == {}


def test_discovery_entries_go_stale_with_their_module_and_discover_replaces_them(
    project: Path,
) -> None:
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        first = run_discovery(memory, incremental=True)
        module = next(
            e for e in memory.list(source=Source.DISCOVERY) if e.file_path == "shop/billing.py"
        )
        assert first.changed_files and not first.skipped and first.parsed == 2

        again = run_discovery(memory, incremental=True)
        assert again.skipped and again.changed_files == () and again.created == 0

        path = project / "shop" / "billing.py"
        path.write_text(BILLING.replace("compute_total", "grand_total"), encoding="utf-8")
        assert memory.stale_reasons([module.id]) == {
            module.id: "shop/billing.py changed since this was written"
        }

        third = run_discovery(memory, incremental=True)
        assert third.changed_files == ("shop/billing.py",)
        assert third.parsed == 1  # the unchanged module's last parse is reused
        assert memory.get(module.id) is None
        renamed = next(
            e for e in memory.list(source=Source.DISCOVERY) if e.file_path == "shop/billing.py"
        )
        assert "grand_total" in renamed.content and "compute_total" not in renamed.content
        assert memory.stale_reasons([renamed.id]) == {}
        hits = memory.search("grand_total", mode="keyword").results
        assert renamed.id in [h.entry.id for h in hits]
        assert not memory.search("compute_total", mode="keyword").results


def test_markdown_entries_and_notes_without_code_record_nothing(project: Path) -> None:
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        memory.add("See the README for setup", source="session")
        memory.add("shop/billing.py is indexed as markdown here", source="markdown")
        (project / "shop" / "billing.py").unlink()
        assert memory.stale_entries() == []  # neither cited the file now gone


def test_a_broken_citation_file_never_fails_a_search_or_an_add(project: Path) -> None:
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        memory.add("compute_total() lives in shop/billing.py", source="session")
    (project / ".claude" / "memory" / CITATIONS_FILE).write_bytes(b"not a database" * 100)
    for suffix in ("-wal", "-shm"):
        (project / ".claude" / "memory" / (CITATIONS_FILE + suffix)).unlink(missing_ok=True)
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        added = memory.add("apply_discount() in shop/billing.py is unused", source="session")
        assert added.created
        results = memory.search("billing", mode="keyword").results
        assert len(results) == 2 and not any(r.stale for r in results)
        source = project / "shop" / "billing.py"
        source.write_text(BILLING.replace("def ", "def renamed_"), encoding="utf-8")
        assert memory.stale_entries() == []  # damaged: no citations, one warning
    [citations] = [c for c in diagnose(project, FakeEmbedder()).checks if c.part == "citations"]
    assert (citations.status, "was unreadable" in citations.detail) == (Status.WARNING, True)


def test_mentioned_paths_stay_inside_the_project(project: Path, tmp_path: Path) -> None:
    (tmp_path / "secret.py").write_text("x = 1\n", encoding="utf-8")
    text = (
        "see ../secret.py, /etc/passwd.txt, .git/config.txt, shop/billing.py:12 and "
        "./shop/__init__.py, and billing.py, and missing/file.py"
    )
    known = ["shop/billing.py", "other/billing_test.py"]

    assert mentioned_paths(text, project, known) == ["shop/billing.py", "shop/__init__.py"]


def test_mentioned_names_are_code_spans_and_calls() -> None:
    text = (
        "Call `Indexer.run` or run_discovery(memory); `build(x)` too; the `a`, `path/x.py`, "
        "`memory-tui` and `git commit` are not names"
    )

    assert mentioned_names(text) == ["Indexer.run", "run", "build", "run_discovery"]


def test_defined_names_cover_private_helpers_methods_and_js() -> None:
    py = b"class A:\n    def go(self): ...\ndef _helper(): ...\nLIMIT = 3\n"
    js = b"export function shown() {}\nconst hidden = () => 1;\nclass Box {\n  open() { }\n}\n"

    assert defined_names("m.py", py) == {"A", "go", "A.go", "_helper", "LIMIT"}
    assert {"shown", "hidden", "Box", "open"} <= (defined_names("m.js", js) or set())
    listed = "export const a = 1, b = 2;\nlet x: number = 0,\n  y = 1;\nexport class Ñandú {}\n"
    assert {"a", "b", "x", "y", "Ñandú"} <= (defined_names("m.ts", listed.encode()) or set())
    assert defined_names("m.py", b"def broken(:\n") is None
    assert defined_names("notes.txt", b"anything") is None


def test_an_edited_discovery_entry_survives_analysis_and_goes_stale_with_its_file(
    project: Path,
) -> None:
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        run_discovery(memory)
        module = next(
            e for e in memory.list(source=Source.DISCOVERY) if e.file_path == "shop/billing.py"
        )
        edited = memory.update(module.id, content="Billing: totals, and discounts as fractions.")
        assert edited.source is Source.MANUAL

        run_discovery(memory)
        kept = memory.get(module.id)
        assert kept is not None and kept.content == edited.content
        same_place = [
            e
            for e in memory.list()
            if (e.file_path, e.section_title) == (module.file_path, module.section_title)
        ]
        assert [e.id for e in same_place] == [module.id]  # not re-created beside it

        assert memory.stale_reasons([module.id]) == {}
        (project / "shop" / "billing.py").write_text(BILLING + "\nTAX = 0.2\n", encoding="utf-8")
        assert memory.stale_reasons([module.id]) == {
            module.id: "shop/billing.py changed since this was written"
        }


def test_discovery_reports_the_embedding_of_new_entries_and_embeds_each_once(
    project: Path,
) -> None:
    calls: list[tuple[int, int, str]] = []
    model = FakeEmbedder()
    with Memory.open(project, embedder=model) as memory:
        found = run_discovery(memory, progress=lambda *call: calls.append(call))
        embedded = model.texts_embedded
        again = run_discovery(memory, progress=lambda *call: calls.append(call))

    assert found.created > 0
    assert calls[0] == (0, found.created, "embedding")
    assert calls[found.created // 64 + 1] == (found.created, found.created, "")
    assert embedded == found.created  # embedded ahead, then read from the cache by add_many
    assert again.created == 0 and calls[-1] == (0, 0, "")
