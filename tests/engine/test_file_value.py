"""Issue 50: a question about what a file as a whole does reaches that file even when its
definitions are cut apart.

cmdliner's "Which pager is used to show the help, and where is the PAGER variable read?"
is answered by ``cmdliner_manpage.ml``, four of whose definitions (``find_pager``,
``pp_to_pager`` in two parts, ``subst``) stood 8th to 11th of the fused ranking, each
below pages that mention the help once; listed by its best section alone, the file was
sixth.
"""

from __future__ import annotations

from judged import judged

from engine.core.models import SearchResult
from engine.search.gate import FILE_SUPPORT, file_values, files_first, order_key, shown


def result(entry_id: str, fused: float, path: str, score: float = 0.8) -> SearchResult:
    return judged(entry_id, score, fused, path)


KEYS = (3.35, 3.1, 3.05, 3.0)


def ids(results: list[SearchResult]) -> list[str]:
    return [r.entry.id for r in results]


def test_a_file_cut_into_definitions_is_weighed_as_a_whole() -> None:
    """Alone its best piece (3.35) would be last; with its next two it is 4.8875."""
    pages = [result(f"page{n}", 5.0 - n / 10, f"doc/p{n}.mld") for n in range(5)]
    pieces = [result(f"piece{n}", key, "src/manpage.ml") for n, key in enumerate(KEYS)]
    listed = shown([*pages, *pieces], 0.2, 5)
    assert ids(listed) == ["page0", "page1", "piece0", "page2", "page3"]
    values = file_values([*pages, *pieces], 0.2)
    assert values["src/manpage.ml"] == 3.35 + FILE_SUPPORT * (3.1 + 3.05)  # its next two only
    assert values["doc/p0.mld"] == 5.0  # a single section is its own value
    scores = [r.score for r in listed]
    assert scores == sorted(scores, reverse=True)


def test_sections_under_the_floor_lend_no_weight_and_notes_keep_their_place() -> None:
    page = result("page", 5.0, "doc/a.md")
    best = result("best", 4.5, "src/a.ml")
    weak = [result(f"weak{n}", 4.4, "src/a.ml", score=0.1) for n in range(2)]  # not listed
    note = result("note", 4.8, "")
    assert ids(files_first([page, note, best, *weak], 0.2)) == [
        "page", "note", "best", "weak0", "weak1",
    ]  # fmt: skip
    assert "" not in file_values([note], 0.2)
    # with the floor off every section counts
    assert ids(files_first([page, note, best, *weak], 0.0))[0] == "best"


def test_the_value_follows_the_order_given() -> None:
    """Vector mode lists by cosine: a file's value is its sections' cosines."""
    a = result("a", 9.0, "a.md")
    b1, b2 = result("b1", 1.0, "b.md"), result("b2", 1.0, "b.md")

    def cosine(r: SearchResult) -> float:
        return {"a": 0.6, "b1": 0.55, "b2": 0.5}[r.entry.id]

    assert ids(files_first([a, b1, b2], 0.2, cosine)) == ["b1", "a", "b2"]
    assert ids(files_first([a, b1, b2], 0.2)) == ["a", "b1", "b2"]  # by order_key
    assert order_key(a) > order_key(b1)
