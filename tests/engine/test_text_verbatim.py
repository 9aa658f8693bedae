"""Stored text is the author's text (issue 45, item 2): outside what the markup rules strip
on purpose (a MyST role becomes the text it shows), every character of a paragraph reaches
the stored chunk as written — inline code holding ``${HOME}``, ``{role}``-like braces,
template braces and variable references included."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.markdown.chunking import chunk_markdown
from engine.markdown.markup import replace_myst_roles
from engine.markdown.splitting import overlap
from engine.services.indexing import Indexer
from engine.services.memory import Memory

NAME = st.text("abcdefghijklmnopqrstuvwxyzABCXYZ_", min_size=1, max_size=8).filter(
    lambda name: name[0].isalpha()
)
CODE_TEXT = st.text(" abcxyz0123$_{}()[]:.,=+-/<>#%|\\'\"", min_size=1, max_size=24).filter(
    lambda text: text.strip() and not text.startswith(" ") and not text.endswith(" ")
)
WORD = st.text("abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=10)

# Each piece is (what the author wrote, what the reader of the rendered page sees).
VERBATIM_PIECES = st.one_of(
    WORD.map(lambda w: (w, w)),
    CODE_TEXT.map(lambda c: (f"`{c}`", f"`{c}`")),
    NAME.map(lambda n: (f"`${{{n}}}`", f"`${{{n}}}`")),  # `${HOME}`
    NAME.map(lambda n: (f"${{{n}}}", f"${{{n}}}")),  # ${HOME}
    NAME.map(lambda n: (f"${n}", f"${n}")),  # $HOME
    NAME.map(lambda n: (f"{{{n}}}", f"{{{n}}}")),  # {role} with no backticks after it
    NAME.map(lambda n: (f"`{{{n}}}`", f"`{{{n}}}`")),  # `{role}` as code
    NAME.map(lambda n: (f"{{{{ {n} }}}}", f"{{{{ {n} }}}}")),  # {{ name }}
    NAME.map(lambda n: (f"`{{{{ {n} }}}}`", f"`{{{{ {n} }}}}`")),
)
ROLE = st.tuples(NAME, WORD).map(lambda p: (f"{{{p[0]}}}`{p[1]}`", p[1]))  # {ref}`text`
PIECES = st.one_of(VERBATIM_PIECES, ROLE)


def _paragraph(pieces: list[tuple[str, str]]) -> tuple[str, str]:
    return " ".join(p[0] for p in pieces), " ".join(p[1] for p in pieces)


PARAGRAPHS = st.lists(st.lists(PIECES, min_size=1, max_size=12).map(_paragraph), min_size=1)


@settings(max_examples=300, deadline=None)
@given(PARAGRAPHS.filter(lambda ps: len(ps) <= 6))
def test_a_paragraph_is_stored_as_written_less_its_roles(paragraphs: list[tuple[str, str]]) -> None:
    written = "# Notes\n\n" + "\n\n".join(p[0] for p in paragraphs) + "\n"
    shown = "# Notes\n\n" + "\n\n".join(p[1] for p in paragraphs)
    chunks = chunk_markdown(written, chunk_size=20_000, overlap_percent=0)
    assert "\n\n".join(c.own_text for c in chunks).strip() == shown


@settings(max_examples=200, deadline=None)
@given(st.lists(VERBATIM_PIECES, min_size=1, max_size=20))
def test_text_without_roles_is_never_rewritten(pieces: list[tuple[str, str]]) -> None:
    text, _ = _paragraph(pieces)
    assert replace_myst_roles(text) == text


def test_the_issue_s_sentence_is_stored_byte_for_byte(tmp_path: Path, memory: Memory) -> None:
    sentence = "Set `${HOME}` first, then run `make deploy` to ship it."
    (tmp_path / "README.md").write_text(f"# Deploy\n\n{sentence}\n", encoding="utf-8")

    assert Indexer(memory).run().errors == []

    hits = memory.search("deploy ship", mode="keyword").results
    assert hits and hits[0].entry.file_path == "README.md"
    assert sentence in hits[0].entry.content


def test_a_role_after_a_code_span_is_still_read_as_a_role() -> None:
    text = "Run `${X}` then see {ref}`the guide <guide>` and `{x}`."
    assert replace_myst_roles(text) == "Run `${X}` then see the guide and `{x}`."


SPAN_WORDS = st.lists(WORD, min_size=1, max_size=4)
SENTENCE_PIECES = st.one_of(
    WORD,
    WORD.map(lambda w: w + "."),
    SPAN_WORDS.map(lambda ws: "`" + " ".join(ws) + "`"),
    SPAN_WORDS.map(lambda ws: "`" + "\n".join(ws) + "`"),  # a code span across lines
    st.just("\n"),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(SENTENCE_PIECES, min_size=2, max_size=60), st.integers(5, 50))
def test_an_overlap_never_opens_inside_a_code_span(pieces: list[str], percent: int) -> None:
    """The overlap repeated in front of a chunk starts outside the previous chunk's code
    spans, so the next chunk's backticks pair as the author's did (issue 45, item 2: a
    README section whose overlap began inside `git+<URL>` was shown as other code)."""
    previous = " ".join(pieces).replace(" \n ", "\n")
    tail = overlap(previous, percent)
    assert previous.rstrip().endswith(tail)
    assert tail.count("`") % 2 == 0, tail
