"""Issue 50: an interface file and its implementation are one answer-space.

cmdliner's question "How are non-ambiguous prefixes of option names looked up?" listed
the trie module's interface ``cmdliner_trie.mli`` second, whose documentation says it,
and its implementation ``cmdliner_trie.ml``, which answers, eighth: reaching one must
reach both.
"""

from __future__ import annotations

import pytest
from judged import judged as result

from engine.core.models import SearchResult
from engine.search.companions import companions, pair_companions
from engine.search.gate import shown


def ids(results: list[SearchResult]) -> list[str]:
    return [r.entry.id for r in results]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("src/cmdliner_trie.mli", "src/cmdliner_trie.ml"),
        ("src/trie.ml", "src/trie.mli"),  # either order
        ("lib/parse.h", "lib/parse.c"),
        ("include/fmt/format.h", "src/format.cc"),  # public headers in include/
        ("types/index.d.ts", "types/index.js"),
        ("pkg/api.pyi", "pkg/api.py"),
        ("Core.fsi", "Core.fs"),
    ],
)
def test_an_interface_and_its_implementation_are_companions(first: str, second: str) -> None:
    assert companions(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("src/trie.mli", "src/cline.ml"),  # another module
        ("lib/a/parse.h", "lib/b/parse.c"),  # another folder, not a public header
        ("src/trie.ml", "src/trie.ml"),  # two implementations
        ("src/a.mli", "src/a.mli"),
        ("types/index.d.ts", "types/index.ts.d.ts"),
        ("types/index.d.ts", "types/index.d.ts"),  # a declaration file is no implementation
        ("README.md", "README.h"),
        (".h", ".c"),  # a suffix alone names no module
        ("", "src/a.ml"),
    ],
)
def test_other_pairs_are_not(first: str, second: str) -> None:
    assert not companions(first, second)


def test_the_implementation_follows_its_listed_interface() -> None:
    manual = result("manual", 0.9, fused=9.0, path="doc/cli.mld")
    interface = result("interface", 0.8, fused=8.0, path="src/cmdliner_trie.mli")
    others = [result(f"other{n}", 0.75, fused=7.0 - n, path=f"doc/p{n}.mld") for n in range(4)]
    implementation = result("implementation", 0.7, fused=2.0, path="src/cmdliner_trie.ml")
    listed = shown([manual, interface, *others, implementation], 0.2, 5)
    assert ids(listed) == ["manual", "interface", "implementation", "other0", "other1"]
    scores = [r.score for r in listed]
    assert scores == sorted(scores, reverse=True)  # pooled as ever


def test_only_listed_results_are_paired_and_the_rest_keeps_its_order() -> None:
    interface = result("interface", 0.8, fused=8.0, path="src/trie.mli")
    other = result("other", 0.75, fused=7.0, path="doc/a.mld")
    below = result("below", 0.1, fused=6.0, path="src/trie.ml")  # under min_score
    note = result("note", 0.7, fused=5.0, path="")
    listed = shown([interface, other, below, note], 0.2, 5)
    assert ids(listed) == ["interface", "other", "note"]
    # an implementation listed first brings its interface up too
    impl = result("impl", 0.9, fused=9.0, path="src/trie.ml")
    iface = result("iface", 0.6, fused=1.0, path="src/trie.mli")
    order = [impl, other, note, iface]
    assert ids(pair_companions(order, lambda r: True)) == ["impl", "iface", "other", "note"]
    # a second section of a file already placed is not moved
    second = result("second", 0.6, fused=0.5, path="src/trie.ml")
    order = [interface, impl, other, second]
    assert ids(pair_companions(order, lambda r: True)) == ["interface", "impl", "other", "second"]
    assert pair_companions([], lambda r: True) == []
