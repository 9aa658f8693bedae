"""Unit tests of what the app shows, without running it: texts, column fitting, scores."""

from __future__ import annotations

import pytest

from app.tui.screens.entry_form import content_problem, split_keywords
from app.tui.search_state import SearchRequest, SearchState
from app.tui.widgets.curation import editor_command
from app.tui.widgets.results_query import prefix_worthy
from app.tui.widgets.results_table import Needs, column_widths, fit_title, score_bar, tail
from app.tui.widgets.results_text import error_text, header_text, placeholder_text
from engine.core.errors import SecretDetectedError
from engine.core.models import Category, SearchMode


def request(query: str = "", mode: SearchMode = SearchMode.HYBRID, **kw: object) -> SearchRequest:
    """A request as the screen builds it (effective mode keyword while the model loads)."""
    effective = kw.pop("effective", mode)
    return SearchRequest(SearchState(query=query, mode=mode, **kw), 1, effective)  # type: ignore[arg-type]


def test_header_says_what_is_shown() -> None:
    assert header_text(request(), 0, 0) == "Empty memory"
    assert header_text(request(), 200, 10_000) == "showing 200 of 10,000 entries, newest first"
    assert header_text(request(), 1, 1) == "1 entry, newest first"
    assert header_text(request(category=Category.GOTCHA), 3, 3) == (
        "3 entries, newest first · category gotcha"
    )
    assert header_text(request(category=Category.GOTCHA), 3, 9) == (
        "showing 3 of 9 entries, newest first · category gotcha"
    )
    assert header_text(request("rrf"), 1, 9) == "1 result for “rrf” · hybrid"
    loading = request("rrf", effective=SearchMode.KEYWORD)
    assert header_text(loading, 2, 9) == (
        "2 results for “rrf” · keyword · hybrid once the model is ready"
    )
    assert header_text(request("x" * 60), 0, 1).startswith(f"0 results for “{'x' * 39}…”")


def test_empty_and_error_states_are_designed() -> None:
    assert "Your memory is empty" in placeholder_text(request(), 0)
    assert "ctrl+n" in placeholder_text(request(), 0)
    assert "filters" in placeholder_text(request(category=Category.GOTCHA), 0)
    assert "keyword mode (F3)" in placeholder_text(request("zzz"), 0)
    assert placeholder_text(request("zzz"), 3) == ""
    assert "still running" in error_text("disk full")


@pytest.mark.parametrize(
    ("query", "expected"),
    [("", False), ("v", False), ("vi", False), ("vit", True), ("vitamin d", False)],
)
def test_short_last_words_are_not_prefixes(query: str, expected: bool) -> None:
    assert prefix_worthy(query) is expected


def test_columns_fit_the_width() -> None:
    for width in (40, 60, 76, 100, 160):
        widths = column_widths(width)
        assert sum(widths.values()) + 2 * 4 + 2 <= max(width, 60)
    assert score_bar(1.0, 5) == "█████" and score_bar(0.0, 5) == "     "
    needs = Needs(category=9, title=80, source=40, name=17)
    for width in range(40, 201, 7):
        widths = column_widths(width, needs)
        shown = [w for w in widths.values() if w]
        assert 1 + sum(shown) + 2 * (len(shown) - 1) + 2 <= width, (width, widths)  # +scrollbar
        assert widths["source"] >= min(17, (widths["title"] + widths["source"]) * 9 // 20)


def test_the_title_takes_the_room_the_source_column_does_not_need() -> None:
    short = Needs(category=9, title=30, source=27, name=17)
    wide = column_widths(120, short)
    assert wide["source"] == 27 and wide["title"] > 30  # whole paths, the title the rest
    long_titles = column_widths(84, Needs(category=9, title=80, source=40, name=17))
    assert long_titles["source"] == 17 and long_titles["title"] == 34  # the names whole
    tiny = column_widths(48, short)
    assert tiny["category"] == 0 and tiny["score"] == 5  # "0.47" without its bar
    assert column_widths(48, short, dates=True)["score"] == 10  # a date keeps its width
    assert score_bar(0.5, 5) == "██▌  "


def test_titles_and_paths_keep_their_meaningful_end() -> None:
    title = "Sync Phases and Waves > How do waves work? > Combining Sync waves and hooks"
    assert fit_title(title, 200) == title
    assert fit_title(title, 60) == "Sync Phases and Waves > … > Combining Sync waves and hooks"
    assert fit_title(title, 44).endswith("… > Combining Sync waves and hooks")
    assert len(fit_title(title, 20)) == 20


def test_a_merged_entry_is_titled_by_where_it_starts() -> None:
    title = "proj · proj > Quick start · proj > The app · proj > Using it from a shell"
    assert fit_title(title, 200) == title
    assert fit_title(title, 30) == "proj +3"
    assert fit_title("Guide > Install · Guide > Upgrade", 20) == "Guide > Install +1"
    assert "shell" not in fit_title(title, 40)
    assert tail("domain/sync-waves.md:115", 30) == "domain/sync-waves.md:115"
    assert tail("domain/sync-waves.md:115", 19) == "…/sync-waves.md:115"
    assert tail("domain/sync-waves.md:115", 17) == "sync-waves.md:115"
    assert len(tail("domain/sync-waves.md:115", 8)) == 8


def test_form_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    assert split_keywords(" a, b,,a , c ") == ("a", "b", "c")
    assert content_problem("   ", None) is not None
    assert "10,000" in str(content_problem("x" * 10_001, None))

    def refuse(text: str) -> None:
        raise SecretDetectedError("content looks like it contains a secret")

    assert content_problem("fine", refuse) == "Content looks like it contains a secret"
    assert content_problem("fine", None) is None


def test_editor_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EDITOR", "vim")
    monkeypatch.delenv("VISUAL", raising=False)
    assert editor_command("/p/a.md", 12) == ["vim", "+12", "/p/a.md"]
    monkeypatch.setenv("VISUAL", "code --wait")
    assert editor_command("/p/a.md", 12) == ["code", "--wait", "/p/a.md"]
