"""A filtered list is the unfiltered one restricted to the filter (issue 45, item 3): a
category filter never hides an entry of that category that the unfiltered search lists,
and still finds nothing for a query that finds nothing anywhere."""

from __future__ import annotations

import pytest

from engine.core.models import Category, SearchMode
from engine.services.memory import Memory

QUERY = "how do I share the memory with my team"


@pytest.fixture
def filled(memory: Memory) -> Memory:
    memory.add(
        "Share the memory with your team: commit the knowledge folder, push, and each "
        "teammate's memory is rebuilt from it.",
        category=Category.GENERAL,
    )
    memory.add(
        "Architecture: the memory store is read by every teammate.",
        category=Category.ARCHITECTURE,
    )
    memory.add("Grind the coffee beans with the burr grinder.", category=Category.ARCHITECTURE)
    memory.add("The kettle boils water for tea in the kitchen.", category=Category.GENERAL)
    memory.add("Deploy the cluster with the pipeline token.", category=Category.GENERAL)
    return memory


@pytest.mark.parametrize("mode", [SearchMode.HYBRID, SearchMode.VECTOR])
def test_a_category_filter_keeps_what_the_unfiltered_list_shows(
    filled: Memory, mode: SearchMode
) -> None:
    unfiltered = filled.search(QUERY, mode=mode, limit=10).results
    shown = {r.entry.id for r in unfiltered if r.entry.category is Category.ARCHITECTURE}
    assert shown, "the unfiltered list holds an architecture entry"
    assert all(r.score < 0.5 for r in unfiltered if r.entry.id in shown)

    filtered = filled.search(QUERY, mode=mode, limit=10, category=Category.ARCHITECTURE)

    assert {r.entry.id for r in filtered.results} == shown


def test_a_query_that_finds_nothing_finds_nothing_in_a_category(filled: Memory) -> None:
    assert filled.search("capital city of australia", limit=10).results == ()
    assert (
        filled.search("capital city of australia", limit=10, category=Category.ARCHITECTURE).results
        == ()
    )
