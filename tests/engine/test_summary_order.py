"""Issue 50: a summary entry never displaces the section that answers.

The analysis writes summaries (a module's, a package's, the project's overview and its
topics) beside the pieces it cuts from files; a summary is told from a piece by what
the analysis records when it stores them (source ``discovery``, no line span), and the
gate folds it into a listed section of its own file or folder, which takes its place.
"""

from __future__ import annotations

from pathlib import Path

from fakes import FakeEmbedder

from engine.core.models import Entry, ScoreExplanation, SearchResult, Source
from engine.search.gate import fold_summaries, is_summary, order_key, shown
from engine.services.discovery import run_discovery
from engine.services.memory import Memory


def result(
    entry_id: str, score: float, fused: float, *, summary: bool = False, path: str | None = None
) -> SearchResult:
    """A judged result: ``score`` its relevance, ``fused`` what orders it first."""
    entry = Entry(
        id=entry_id,
        content=entry_id,
        source=Source.DISCOVERY if summary else Source.MARKDOWN,
        file_path=f"{entry_id}.md" if path is None else path,
        line_start=0 if summary else 3,
        line_end=0 if summary else 9,
    )
    why = ScoreExplanation(fused_score=fused, vector_similarity=0.0, coverage=0.0)
    return SearchResult(entry, score, why)


def ids(results: list[SearchResult]) -> list[str]:
    return [r.entry.id for r in results]


def test_a_summary_ordered_first_gives_its_place_to_its_files_section() -> None:
    module = result("module", 0.7, fused=3.0, summary=True, path="src/retry.py")
    other = result("other", 0.65, fused=2.0, path="src/other.py")
    answer = result("answer", 0.6, fused=1.5, path="docs/retry.md")
    piece = result("piece", 0.5, fused=1.0, path="src/retry.py")
    weak = result("weak", 0.3, fused=0.5)
    assert order_key(module) > order_key(other) > order_key(answer) > order_key(piece)
    listed = shown([weak, piece, answer, other, module], 0.2, 4)
    assert ids(listed) == ["piece", "other", "answer", "weak"]
    scores = [r.score for r in listed]
    assert scores == sorted(scores, reverse=True)  # pooled: never rising down the list


def test_a_summary_below_a_section_of_its_place_is_left_out() -> None:
    package = result("package", 0.7, fused=2.0, summary=True, path="src/net")
    section = result("section", 0.8, fused=3.0, path="src/net/http.py")
    sibling = result("sibling", 0.6, fused=1.0, path="src/network.py")  # not in src/net
    assert ids(shown([sibling, package, section], 0.2, 5)) == ["section", "sibling"]


def test_a_project_summary_gives_way_to_any_files_section_but_not_to_a_note() -> None:
    overview = result("overview", 0.9, fused=3.0, summary=True, path="")
    note = result("note", 0.8, fused=2.0, path="")
    assert ids(shown([note, overview], 0.2, 5)) == ["overview", "note"]
    readme = result("readme", 0.4, fused=1.0, path="README.md")
    assert ids(shown([readme, note, overview], 0.2, 5)) == ["readme", "note"]


def test_a_summary_stays_where_no_section_of_its_place_is_listed() -> None:
    module = result("module", 0.7, fused=3.0, summary=True, path="src/retry.py")
    below_floor = result("piece", 0.1, fused=0.5, path="src/retry.py")
    other = result("other", 0.6, fused=1.0, path="src/other.py")
    assert ids(shown([other, below_floor, module], 0.2, 5)) == ["module", "other"]
    assert ids(fold_summaries([module, below_floor], 0.0)) == ["piece"]  # no floor
    assert fold_summaries([], 0.2) == []


def test_the_summaries_are_what_the_analysis_writes_about_a_place(tmp_path: Path) -> None:
    files = {
        "shop/__init__.py": '"""The shop: carts and checkout."""\n',
        "shop/cart.py": '"""Shopping carts."""\n\n\ndef add_item(cart, item):\n'
        '    """Put an item in the cart."""\n    cart.append(item)\n    return cart\n',
        "shop/checkout.py": '"""Paying for a cart."""\n\n\ndef pay(cart, card):\n'
        '    """Charge the card for every item in the cart."""\n    return sum(cart)\n',
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    (tmp_path / ".git").mkdir()
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        run_discovery(memory)
        note = memory.add("The checkout module charges the card once per cart.").entry
        entries = memory.list(limit=1_000)
        found = memory.search("pay for the cart: charge the card", mode="hybrid").results
    listed = [r.entry for r in found]
    assert any(e.file_path == "shop/checkout.py" for e in listed)
    for summary in filter(is_summary, listed):  # never beside a section of its own place
        place = summary.file_path
        assert not any(
            e.file_path.startswith(place) and not is_summary(e) for e in listed if e.file_path
        ), (summary.section_title, [e.section_title for e in listed])
    titles = {e.section_title: is_summary(e) for e in entries}
    assert titles["Module shop/cart.py"] and titles["Module shop/checkout.py"]
    assert titles["Package shop/"] and titles["Project overview"]
    pieces = [e for e in entries if e.source is Source.DISCOVERY and e.line_start]
    assert {e.section_title for e in pieces} >= {"add_item", "pay"}
    assert not any(is_summary(e) for e in pieces)
    assert not is_summary(note)


def test_every_file_that_answers_is_listed_once_before_a_second_part_of_one() -> None:
    """A long page cut in many sections (a migration guide touching every topic) took two
    of the first five places, and the page that answers fell out of them."""
    guide = [result(f"guide{n}", 0.95 - n / 100, fused=9.0 - n, path="docs/upgrading.rst")
             for n in range(3)]  # fmt: skip
    quickstart = result("quickstart", 0.7, fused=4.0, path="docs/quickstart.rst")
    code = result("code", 0.6, fused=3.0, path="src/fields.py")
    weak = result("weak", 0.3, fused=2.5, path="src/utils.py")  # listed, if weakly
    unlisted = result("unlisted", 0.1, fused=2.4, path="src/io.py")  # under min_score
    note = result("note", 0.9, fused=8.5, path="")  # a note is never moved
    listed = shown([*guide, quickstart, code, weak, unlisted, note], 0.2, 5)
    assert ids(listed) == ["guide0", "note", "quickstart", "code", "weak"]
    everything = shown([*guide, quickstart, code, weak, unlisted, note], 0.0, 10)
    assert ids(everything) == ["guide0", "note", "quickstart", "code", "weak", "unlisted", "guide1"]
    assert listed[0].explanation.folded == 1  # its third section, folded under its best
    scores = [r.score for r in listed]
    assert scores == sorted(scores, reverse=True)
