"""Tests for splitting markdown into chunks: unit tests per rule, then property tests."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.markdown.chunking import (
    ATOMIC_LIMIT_FACTOR,
    MIN_PROSE_CHARS,
    OVERLAP_SEPARATOR,
    Chunk,
    chunk_markdown,
)

FENCE = re.compile(r"^\s*(`{3,}|~{3,})(.*)$")


def own_texts(chunks: list[Chunk]) -> list[str]:
    return [chunk.own_text for chunk in chunks]


def fences_balanced(text: str) -> bool:
    """An independent fence checker: every opened fence is closed within ``text``."""
    open_fence: str | None = None
    for line in text.split("\n"):
        match = FENCE.match(line)
        if match is None:
            continue
        fence, rest = match.groups()
        if open_fence is None:
            open_fence = fence
        elif fence[0] == open_fence[0] and len(fence) >= len(open_fence) and not rest.strip():
            open_fence = None
    return open_fence is None


def is_single_atomic_block(text: str) -> bool:
    """Whether ``text`` is exactly one fenced block or one table."""
    lines = text.split("\n")
    if all("|" in line for line in lines):
        return True
    if not (FENCE.match(lines[0]) and FENCE.match(lines[-1])):
        return False
    return not fences_balanced("\n".join(lines[:-1])) and fences_balanced(text)


# Rule 1: split at ATX headings outside code fences, heading line kept in the content.


def test_splits_at_headings_and_keeps_the_heading_line() -> None:
    text = "# One\nalpha\n## Two\nbeta\n###### Six\ngamma\n#nospace\n####### seven\n"

    chunks = chunk_markdown(text, overlap_percent=0)

    assert own_texts(chunks) == [
        "# One\nalpha",
        "## Two\nbeta",
        "###### Six\ngamma\n#nospace\n####### seven",
    ]


def test_headings_inside_fences_do_not_split() -> None:
    text = "# Real\n````md\n# fake\n```\n# still fake\n```\n````\n~~~\n## fake too\n~~~\n"

    chunks = chunk_markdown(text, overlap_percent=0)

    assert len(chunks) == 1
    assert chunks[0].title == "Real"


# Rule 2: titles are heading paths; deeper levels reset when a higher heading appears.


def test_titles_are_heading_paths() -> None:
    text = (
        "intro\n# Install\na\n## Linux\nb\n### Debian ###\nc\n## Mac\nd\n#### Deep\ne\n# Usage\nf\n"
    )

    titles = [c.title for c in chunk_markdown(text)]

    assert titles == [
        "",
        "Install",
        "Install > Linux",
        "Install > Linux > Debian",
        "Install > Mac",
        "Install > Mac > Deep",
        "Usage",
    ]


def test_titles_are_the_headings_as_their_reader_sees_them() -> None:
    text = (
        '# Anyhow&ensp;¯\\\\\\_(°ペ)\\_/¯ <a name="top"></a>\nabout\n'
        "## Hashing ([Java][Hashing]/[Kotlin][HashingKt])\na\n"
        "## Compared with [`got`](https://github.com/sindresorhus/got)\nb\n"
        "## The *fastest* way to call `__init__` on Option<T>\nc\n"
        "\n[Hashing]: https://example.com/java\n[HashingKt]: https://example.com/kotlin\n"
    )

    titles = [c.title.rpartition(" > ")[2] for c in chunk_markdown(text)]

    assert titles == [
        "Anyhow ¯\\_(°ペ)_/¯",
        "Hashing (Java/Kotlin)",
        "Compared with `got`",
        "The fastest way to call `__init__` on Option<T>",
    ]


def test_html_in_a_heading_reads_as_a_reader_sees_it() -> None:
    # go-chi/chi's README opens with its logo; an image shows its alt text, other tags
    # their text, and what only reads as a tag (a type's parameter) stays.
    text = (
        '# <img alt="chi" src="https://cdn.rawgit.com/go-chi/chi/master/_examples/chi.svg"'
        ' width="220" />\nabout\n'
        '## <div align="center"><IMG SRC=\'x.svg\' ALT="Signing &amp; more"></div>Tokens\na\n'
        "## Title<br><sub>subtitle</sub> <!-- note -->\nb\n"
        '## Map<K, V> or Box<dyn Error> <img src="logo.png" align="right" />\nc\n'
    )

    titles = [c.title for c in chunk_markdown(text)]

    assert titles == [
        "chi",
        "chi > Tokens",  # an image beside words is decoration (an icon, a badge)
        "chi > Title subtitle",
        "chi > Map<K, V> or Box<dyn Error>",
    ]


def test_a_badge_beside_a_headings_words_is_no_part_of_its_title() -> None:
    # weavejester/hiccup's README: "# Hiccup [![Build Status](…)](…)" titled every section
    # "Hiccup Build Status > …"; a logo alone still titles the page by its alt text.
    text = (
        "# Hiccup [![Build Status](https://ci.example/hiccup.svg)](https://ci.example)\n\n"
        'About it.\n\n## Syntax ![npm](https://img.example/v.svg) <img alt="CI" src="c">\n\n'
        "How to write it.\n\n# ![Logo for a title](logo.png)\n\nMore.\n"
    )

    titles = [c.title for c in chunk_markdown(text, overlap_percent=0)]

    assert titles == ["Hiccup", "Hiccup > Syntax", "Logo for a title"]


def test_a_documenter_custom_anchor_shows_its_headers_text() -> None:
    # Literate.jl's manual: "# [**6.** Interaction with Documenter.jl](@id Interaction-…)"
    # titled its sections with the link as written (CommonMark reads no link there: the
    # destination holds a space); Documenter shows the text and uses the anchor.
    text = (
        "# [**6.** Interaction with Documenter.jl](@id Interaction-with-Documenter)\n\n"
        "About it.\n\n### [`Literate.markdown`](@ref):\n\nMore.\n\n"
        "## A [link](@id x) inside and [one](https://e.example)\n\nText.\n"
    )

    titles = [c.title for c in chunk_markdown(text, overlap_percent=0)]

    assert titles == [
        "6. Interaction with Documenter.jl",
        "6. Interaction with Documenter.jl > `Literate.markdown`:",
        "6. Interaction with Documenter.jl > A link inside and one",
    ]


def test_a_heading_that_shows_nothing_is_no_title() -> None:
    # A logo without alt text: the heading still closes the ones above it, but it adds no
    # empty level to the heading path, and the page's own title stands in for it.
    text = (
        '# <img src="logo.svg" width="100">\n\nIntro to the project.\n\n## Install\n\nRun it.\n'
        '\n### <div align="center"><img src="x.png"></div>\n\nMore text.\n'
    )

    untitled = chunk_markdown(text, overlap_percent=0)
    titled = chunk_markdown(text, overlap_percent=0, page_title="Project")

    assert [(c.title, c.line_start) for c in untitled] == [("", 1), ("Install", 5), ("Install", 9)]
    assert [c.title for c in titled] == ["Project", "Project > Install", "Project > Install"]
    assert untitled[0].own_text.startswith('# <img src="logo.svg"')


# Rule 3: blank sections vanish; a heading with no text joins the next section's chunk.


def test_blank_text_gives_no_chunks_and_bare_headings_join_the_next_section() -> None:
    assert chunk_markdown("") == []
    assert chunk_markdown("\n  \n\t\n") == []

    chunks = chunk_markdown("\n\n# Empty\n\n\n# Full\ntext\n\n# Trailing\n", overlap_percent=0)

    assert [(c.title, c.content, c.line_start) for c in chunks] == [
        ("Full", "# Empty\n\n# Full\ntext", 3),
    ]


def test_a_parent_heading_with_no_text_opens_its_first_subsections_chunk() -> None:
    text = "# Guide\n\n## Install\n\n### From source\nRun make.\n\n### From pip\npip it.\n"

    chunks = chunk_markdown(text, overlap_percent=0)

    # The chunk is cited at its own heading's line (5), not at the bare parents' line 1:
    # the heading path that opens its content shows the parents.
    assert [(c.title, c.own_text, c.line_start) for c in chunks] == [
        ("Guide > Install > From source", "### From source\nRun make.", 5),
        ("Guide > Install > From pip", "### From pip\npip it.", 8),
    ]
    assert chunks[0].content == "Guide > Install > From source\n\n### From source\nRun make."


def test_a_bare_heading_that_is_no_parent_stays_in_the_text() -> None:
    text = "# Guide\n\n## Empty\n\n## Install\nRun make.\n"

    chunks = chunk_markdown(text, overlap_percent=0)

    assert [(c.title, c.own_text, c.line_start) for c in chunks] == [
        ("Guide > Install", "## Empty\n\n## Install\nRun make.", 3),
    ]


def test_a_heading_above_an_oversized_block_stays_with_it() -> None:
    code = "```\n" + "\n".join(f"step {i}" for i in range(40)) + "\n```"

    chunks = chunk_markdown(f"# Top\n\nintro\n\n## Steps\n\n{code}\n", 100, 0)

    assert [c.own_text for c in chunks] == ["# Top\n\nintro", f"## Steps\n\n{code}"]
    assert chunks[1].line_start == 5


# Rule 4: long sections split at paragraphs, lines, sentences, words, then hard cuts.


def test_long_sections_split_at_paragraph_boundaries_first() -> None:
    paragraphs = [f"Paragraph {i}. " + "word " * 30 for i in range(6)]
    text = "# Long\n\n" + "\n\n".join(p.strip() for p in paragraphs)

    chunks = chunk_markdown(text, chunk_size=400, overlap_percent=0)

    assert len(chunks) > 1
    assert all(c.title == "Long" for c in chunks)
    for chunk in chunks:
        assert len(chunk.content) <= 400
        assert chunk.content.split("\n")[-1].endswith("word")  # whole paragraphs only
    assert chunks[0].content.startswith("# Long\n\nParagraph 0.")


def test_paragraph_boundary_beats_a_later_line_boundary() -> None:
    first = "First paragraph. " + "filler " * 33
    second = "\n".join(f"line {i} of the second paragraph, quite long" for i in range(10))
    text = f"{first.strip()}\n\n{second}"

    chunks = chunk_markdown(text, chunk_size=400, overlap_percent=0)

    # Two lines of the second paragraph would still fit, but the cut goes between paragraphs.
    assert chunks[0].content == first.strip()
    assert chunks[1].content.startswith("line 0 ")


def test_a_heading_stays_with_the_start_of_a_long_paragraph() -> None:
    lines = "\n".join(f"line {i} of a long paragraph under the heading" for i in range(20))

    chunks = chunk_markdown(f"# Heading\n\n{lines}", chunk_size=300, overlap_percent=0)

    assert chunks[0].content.startswith("# Heading\n\nline 0 ")
    assert all(len(c.content) <= 300 for c in chunks)


def test_sentence_boundaries_before_whitespace() -> None:
    sentence = "This sentence has exactly eight words in it. "
    text = (sentence * 10).strip()

    chunks = chunk_markdown(text, chunk_size=100, overlap_percent=0)

    assert all(c.content.endswith(".") for c in chunks)
    assert all(len(c.content) <= 100 for c in chunks)


def test_whitespace_then_hard_cut_as_last_resort() -> None:
    words = " ".join(["lorem"] * 60)
    chunks = chunk_markdown(words, chunk_size=100, overlap_percent=0)
    assert all(c.content.startswith("lorem") and c.content.endswith("lorem") for c in chunks)
    assert " ".join(c.content for c in chunks) == words

    long_word = "x" * 250
    cut = chunk_markdown(long_word, chunk_size=100, overlap_percent=0)
    assert [len(c.content) for c in cut] == [100, 100, 50]


def test_fenced_blocks_and_tables_are_never_cut() -> None:
    code = "```python\n" + "\n".join(f"x_{i} = {i}" for i in range(30)) + "\n```"
    table = "| a | b |\n|---|---|\n" + "\n".join(f"| {i} | {i * i} |" for i in range(30))
    text = f"# Code\n\nbefore\n\n{code}\n\nmiddle\n\n{table}\n\nafter"

    chunks = chunk_markdown(text, chunk_size=200, overlap_percent=0)
    contents = [c.content for c in chunks]

    owns = own_texts(chunks)
    assert code in owns  # oversized (> 200 chars) but whole and alone
    assert table in owns
    assert all(len(c) <= 200 or c in (code, table) for c in owns)
    # Every chunk after the first says which section it belongs to.
    assert all(c.startswith("Code\n\n") for c in contents[1:])


def test_atomic_block_beyond_the_limit_is_split_between_lines_and_rewrapped() -> None:
    body = [f"line_{i:03d} = {i}" for i in range(100)]
    text = "~~~~yaml\n" + "\n".join(body) + "\n~~~~\n"
    assert len(text) > ATOMIC_LIMIT_FACTOR * 200

    chunks = chunk_markdown(text, chunk_size=200, overlap_percent=0)

    assert len(chunks) > 1
    for chunk in chunks:
        lines = chunk.content.split("\n")
        assert lines[0] == "~~~~yaml"
        assert lines[-1] == "~~~~"
        assert len(chunk.content) <= 200
    inner = [line for c in chunks for line in c.content.split("\n")[1:-1]]
    assert inner == body
    assert (chunks[0].line_start, chunks[-1].line_end) == (1, 102)
    assert chunks[1].line_start == chunks[0].line_end + 1


@pytest.mark.parametrize("info", ["txt", "text", "output", "{.text}"])
def test_a_long_plain_text_fence_is_split_into_pieces_of_the_atomic_limit(info: str) -> None:
    body = [
        f"  --option-{i:03d} <VALUE>   what option {i} changes in the output" for i in range(60)
    ]
    text = f"# Full --help output\n\n```{info}\n" + "\n".join(body) + "\n```\n"
    assert len(text) > ATOMIC_LIMIT_FACTOR * 300

    chunks = chunk_markdown(text, chunk_size=300, overlap_percent=0)

    assert len(chunks) <= -(-len(text) // (ATOMIC_LIMIT_FACTOR * 300)) + 1
    assert all(len(c.content) <= ATOMIC_LIMIT_FACTOR * 300 + 40 for c in chunks)
    inner = [ln for c in chunks for ln in c.content.split("\n") if ln.startswith("  --option")]
    assert inner == body
    code = chunk_markdown(text.replace(f"```{info}", "```rust"), chunk_size=300, overlap_percent=0)
    assert len(code) > 2 * len(chunks)


def test_table_beyond_the_limit_repeats_its_header() -> None:
    rows = [f"| {i} | value {i} |" for i in range(80)]
    text = "| n | v |\n|---|---|\n" + "\n".join(rows)

    chunks = chunk_markdown(text, chunk_size=150, overlap_percent=0)

    assert len(chunks) > 1
    assert all(c.content.startswith("| n | v |\n|---|---|\n") for c in chunks)
    assert [r for c in chunks for r in c.content.split("\n")[2:]] == rows


def test_table_with_a_very_wide_header_is_split_without_repeating_it() -> None:
    header = "| " + "key".ljust(60) + " | " + "value".ljust(60) + " |"
    delimiter = "|" + "-" * 62 + "|" + "-" * 62 + "|"
    rows = [f"| {i} | {'v' * 20} |" for i in range(40)]
    text = "\n".join([header, delimiter, *rows])

    chunks = chunk_markdown(text, chunk_size=200, overlap_percent=0)

    assert chunks[0].content.startswith(header)
    assert all(not c.content.startswith(header) for c in chunks[1:])
    assert all(len(c.content) <= 200 for c in chunks)
    assert [line for c in chunks for line in c.content.split("\n")] == text.split("\n")


def test_oversized_atomic_chunks_get_no_overlap() -> None:
    code = "```\n" + "\n".join(f"step {i}" for i in range(40)) + "\n```"
    text = f"# A\nFirst sentence. Second sentence here.\n\n{code}\n\nLast words. The end."

    chunks = chunk_markdown(text, chunk_size=100, overlap_percent=50)

    assert [c.own_text for c in chunks] == [
        "# A\nFirst sentence. Second sentence here.",
        code,
        "Last words. The end.",
    ]
    assert chunks[1].overlap_chars == 0
    assert chunks[2].overlap_chars == 0  # the tail of a code block is a fence line


# Rule 5: small sections are merged only when asked (documentation is indexed so).


def test_small_sections_are_not_merged_by_default() -> None:
    chunks = chunk_markdown("# A\nx\n# B\ny\n# C\nz\n", overlap_percent=0)

    assert [c.content for c in chunks] == ["# A\nx", "# B\ny", "# C\nz"]


LONG = "This paragraph has well over sixty characters of words in it, so it stands alone."


def test_a_section_under_sixty_characters_of_words_joins_the_next() -> None:
    text = f"# A\n\nSee [the guide](guide.md).\n\n# B\n\n{LONG}\n\n# C\n\n{LONG}\n"

    chunks = chunk_markdown(text, overlap_percent=0, min_prose=MIN_PROSE_CHARS)

    assert [(c.title, c.own_text, c.line_start) for c in chunks] == [
        ("B", f"# A\n\nSee [the guide](guide.md).\n\n# B\n\n{LONG}", 1),
        ("C", f"# C\n\n{LONG}", 9),
    ]


def test_a_short_last_section_joins_the_one_before() -> None:
    text = f"# A\n\n{LONG}\n\n## B\n\nShort.\n\n## C\n\n    x = 1\n\n## D\n"

    chunks = chunk_markdown(text, overlap_percent=0, min_prose=MIN_PROSE_CHARS)

    assert [(c.title, c.line_start, c.line_end) for c in chunks] == [("A", 1, 11)]
    assert chunks[0].own_text.endswith("## C\n\n    x = 1")  # the bare ## D is dropped


def test_a_heading_never_ends_a_piece_of_merged_sections() -> None:
    code = "```\n" + "\n".join(f"line {i} of the example" for i in range(30)) + "\n```"
    text = f"# A\n\nshort text\n\n## B\n\n{code}\n"

    chunks = chunk_markdown(text, 200, 0, min_prose=MIN_PROSE_CHARS)

    # The short section A joined B; B's heading goes with its code, not after A's text.
    assert [(c.own_text.split("\n")[0], c.own_text.split("\n")[-1]) for c in chunks] == [
        ("# A", "short text"),
        ("## B", "```"),
    ]
    assert [(c.line_start, c.line_end) for c in chunks] == [(1, 3), (5, 38)]


# Rule 6: overlap.


def test_zero_overlap_gives_exactly_the_own_texts() -> None:
    text = "# A\n" + "Some sentence here. " * 40 + "\n# B\nshort\n"

    chunks = chunk_markdown(text, chunk_size=200, overlap_percent=0)

    assert all(c.overlap_chars == 0 for c in chunks)
    assert [c.content[c.path_chars :] for c in chunks] == own_texts(chunks)
    assert own_texts(chunk_markdown(text, chunk_size=200, overlap_percent=30)) == own_texts(chunks)


def test_overlap_starts_at_a_sentence_and_is_bounded() -> None:
    first = "Alpha one is first. Beta two is second. Gamma three is third. Delta four ends."
    second = "Next paragraph. " + "filler " * 12

    chunks = chunk_markdown(f"# A\n{first}\n\n{second}", chunk_size=120, overlap_percent=30)

    assert [c.own_text for c in chunks] == [f"# A\n{first}", second.strip()]
    assert chunks[0].overlap_chars == 0
    assert chunks[1].path_chars == len("A" + OVERLAP_SEPARATOR)
    prefix = chunks[1].content[chunks[1].path_chars :][: chunks[1].overlap_chars]
    assert prefix == "Delta four ends." + OVERLAP_SEPARATOR
    assert len(prefix) <= len(f"# A\n{first}") * 30 // 100 + len(OVERLAP_SEPARATOR)
    assert chunks[1].content == "A\n\nDelta four ends.\n\n" + second.strip()


def test_overlap_never_crosses_a_section_boundary() -> None:
    first = "# A\nAlpha one is first. Beta two is second. Gamma three is third. Delta four ends."

    chunks = chunk_markdown(first + "\n# B\nNext section.", chunk_size=200, overlap_percent=50)

    assert [c.content for c in chunks] == [first, "# B\nNext section."]
    assert chunks[1].overlap_chars == 0


def test_no_overlap_without_a_boundary_in_the_tail() -> None:
    text = "# A\n" + "word " * 20 + "end\n\n" + "more " * 20

    chunks = chunk_markdown(text, chunk_size=120, overlap_percent=10)

    assert len(chunks) == 2
    assert chunks[1].overlap_chars == 0
    assert chunks[1].content == "A\n\n" + ("more " * 20).strip()


def test_overlap_never_carries_fence_lines() -> None:
    text = "# A\nIntro line.\n```\ncode\n```\n\nSome closing words here. " + "x " * 40

    chunks = chunk_markdown(text, chunk_size=100, overlap_percent=50)

    assert len(chunks) == 2
    assert fences_balanced(chunks[1].content)
    assert "```" not in chunks[1].content


# Rule 7: argument validation.


@pytest.mark.parametrize(("size", "overlap"), [(99, 15), (0, 0), (100, -1), (100, 51), (2000, 100)])
def test_invalid_arguments_raise(size: int, overlap: int) -> None:
    with pytest.raises(ValueError):
        chunk_markdown("text", chunk_size=size, overlap_percent=overlap)


def test_boundary_arguments_are_accepted() -> None:
    assert chunk_markdown("text", chunk_size=100, overlap_percent=0)[0].content == "text"
    assert chunk_markdown("text", chunk_size=100, overlap_percent=50)[0].content == "text"


# Rule 8: line ranges.


def test_line_ranges_cover_each_pieces_own_text() -> None:
    text = "intro\n\n# Title\n\n" + "\n\n".join(f"para {i} " + "x " * 40 for i in range(4))

    chunks = chunk_markdown(text, chunk_size=100, overlap_percent=20)
    lines = text.split("\n")

    assert (chunks[0].line_start, chunks[0].line_end) == (1, 1)
    assert chunks[1].line_start == 3
    for chunk in chunks:
        own_lines = chunk.own_text.split("\n")
        assert own_lines[0].strip() in lines[chunk.line_start - 1]
        assert own_lines[-1].strip() in lines[chunk.line_end - 1]


def test_crlf_input_counts_lines_like_lf() -> None:
    chunks = chunk_markdown("# A\r\nx\r\n\r\n# B\r\ny\r\n")

    assert [(c.line_start, c.line_end) for c in chunks] == [(1, 2), (4, 5)]
    assert all("\r" not in c.content for c in chunks)


# Rule 9: stripping.


def test_chunks_are_stripped_of_blank_lines_and_never_empty() -> None:
    chunks = chunk_markdown("\n\n  \n# A\n\n\n  indented text  \n\n\n# B\n\n", overlap_percent=0)

    assert [c.content for c in chunks] == ["# A\n\n  indented text"]


def test_runs_of_blank_lines_become_one_except_in_fenced_code() -> None:
    text = "# A\n\n\n\nwords\n\n\n```\ncode\n\n\nmore code\n```\n\n\nend\n"

    [chunk] = chunk_markdown(text, overlap_percent=0)

    assert chunk.content == "# A\n\nwords\n\n```\ncode\n\n\nmore code\n```\n\nend"
    assert (chunk.line_start, chunk.line_end) == (1, 16)


# Property tests.

# Words come from a fixed vocabulary: drawing random text is slow and adds nothing here.
WORD = st.sampled_from(["a", "memory", "index", "chunk", "overlap", "e.g", "x1", "lance"])
LONG_WORD = st.builds(lambda n, c: c * n, st.integers(100, 400), st.sampled_from("klm"))
SENTENCE = st.builds(
    lambda words, end: " ".join(words) + end,
    st.lists(WORD, min_size=1, max_size=10),
    st.sampled_from([".", "!", "?", ""]),
)
LINE = st.one_of(
    st.lists(SENTENCE, min_size=1, max_size=5).map(" ".join),
    LONG_WORD,
)
PARAGRAPH = st.lists(LINE, min_size=1, max_size=4).map("\n".join)
HEADING = st.builds(
    lambda level, words: "#" * level + " " + " ".join(words),
    st.integers(1, 6),
    st.lists(WORD, min_size=1, max_size=5),
)
CODE_LINE = st.one_of(
    st.lists(WORD, max_size=4).map(" ".join),
    st.sampled_from(["# not a heading", "~~~", "<!-- keywords: x -->", "    indented", "| a |"]),
)


@st.composite
def fenced_blocks(draw: st.DrawFn) -> str:
    fence = draw(st.sampled_from(["```", "````", "~~~", "~~~~~"]))
    info = draw(st.sampled_from(["", "python", "yaml"]))
    body = draw(st.lists(CODE_LINE, max_size=30))
    # Long bodies exercise blocks beyond the atomic limit, which are re-wrapped.
    body += [f"value_{i} = {i}" for i in range(draw(st.sampled_from([0, 0, 60, 200])))]
    # A ``` fence body may hold ~~~ lines and vice versa, but not its own fence.
    body = [line for line in body if not line.startswith(fence[0] * 3)]
    return "\n".join([fence + info, *body, fence])


@st.composite
def tables(draw: st.DrawFn) -> str:
    rows = draw(st.lists(st.lists(WORD, min_size=2, max_size=2), min_size=1, max_size=20))
    body = [f"| {a} | {b} |" for a, b in rows]
    body += [f"| row {i} | {i * i} |" for i in range(draw(st.sampled_from([0, 0, 100])))]
    return "\n".join(["| head | tail |", "|------|------|", *body])


DOCUMENT = st.lists(
    st.tuples(
        st.one_of(HEADING, PARAGRAPH, PARAGRAPH, fenced_blocks(), tables()),
        st.sampled_from(["\n", "\n\n", "\n\n\n"]),
    ),
    max_size=25,
).map(lambda parts: "".join(block + gap for block, gap in parts))

# Small sizes are where splitting, oversized blocks and re-wrapping happen; draw them often.
SIZE = st.one_of(st.integers(100, 400), st.integers(100, 3000))
PROPERTY_SETTINGS = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY_SETTINGS
@given(DOCUMENT, SIZE, st.integers(0, 50), st.sampled_from([0, MIN_PROSE_CHARS]))
def test_no_text_is_lost(text: str, size: int, overlap: int, min_prose: int) -> None:
    chunks = chunk_markdown(text, size, overlap, min_prose)
    owns = own_texts(chunks)
    joined = "".join("".join(own.split()) for own in owns)
    lines = text.split("\n")
    # Only bare headings at the very end (no text under them) may be dropped.
    last_text = max((i for i, line in enumerate(lines) if not _heading_or_blank(line)), default=-1)
    for line in lines[: last_text + 1]:
        if not line.strip():
            continue
        if len(line) > size - size // 4 - 2:
            # Only a line longer than the chunk (less its heading path) may be cut across
            # consecutive pieces.
            assert "".join(line.split()) in joined
        elif line.startswith("#"):
            # A parent heading with no text of its own may show only in the heading path.
            assert any(line.strip("# ") in c.content for c in chunks), line
        else:
            assert any(line.strip() in own for own in owns), line


def _heading_or_blank(line: str) -> bool:
    return not line.strip() or line.startswith("#")


def _without_leading_headings(text: str) -> str:
    lines = text.split("\n")
    while len(lines) > 1 and _heading_or_blank(lines[0]):
        lines.pop(0)
    return "\n".join(lines)


@PROPERTY_SETTINGS
@given(DOCUMENT, SIZE, st.integers(0, 50), st.sampled_from([0, MIN_PROSE_CHARS]))
def test_size_and_overlap_bounds(text: str, size: int, overlap: int, min_prose: int) -> None:
    chunks = chunk_markdown(text, size, overlap, min_prose)
    for index, chunk in enumerate(chunks):
        own = chunk.own_text
        assert own and own == own.strip("\n")
        assert not all(_heading_or_blank(line) for line in own.split("\n"))
        # Headings that would otherwise stand alone ride in front of a full piece.
        body = _without_leading_headings(own)
        assert len(body) <= size or is_single_atomic_block(body)
        assert len(chunk.content) <= ATOMIC_LIMIT_FACTOR * size
        path = chunk.content[: chunk.path_chars].removesuffix(OVERLAP_SEPARATOR)
        # The heading path, shortened from the left when it is long.
        assert chunk.title.endswith(path.removeprefix("…"))
        assert len(path) <= max(size // 4, 1)
        if chunk.overlap_chars == 0:
            continue
        previous = chunks[index - 1]
        assert previous.title == chunk.title  # overlap stays inside its section
        prefix = chunk.content[chunk.path_chars :][: chunk.overlap_chars]
        assert prefix.endswith(OVERLAP_SEPARATOR)
        assert previous.own_text.endswith(prefix.removesuffix(OVERLAP_SEPARATOR))
        assert chunk.overlap_chars <= len(previous.own_text) * overlap // 100 + len(
            OVERLAP_SEPARATOR
        )
    assert chunks == [] or chunks[0].overlap_chars == 0
    without_overlap = chunk_markdown(text, size, 0, min_prose)
    assert [c.content[c.path_chars :] for c in without_overlap] == own_texts(chunks)


@PROPERTY_SETTINGS
@given(DOCUMENT, SIZE, st.integers(0, 50), st.sampled_from([0, MIN_PROSE_CHARS]))
def test_fences_balanced_and_line_ranges_monotonic(
    text: str, size: int, overlap: int, min_prose: int
) -> None:
    chunks = chunk_markdown(text, size, overlap, min_prose)
    line_count = len(text.split("\n"))
    previous_start = 1
    for chunk in chunks:
        assert fences_balanced(chunk.own_text)
        assert fences_balanced(chunk.content)
        assert previous_start <= chunk.line_start <= chunk.line_end <= line_count
        previous_start = chunk.line_start


# Real-world block structure (CommonMark, through markdown-it).

SETEXT = """Project
=======

Intro text.

Install
-------

Run pip.

Usage
=====

Call it.
"""


def test_setext_headings_start_sections() -> None:
    chunks = chunk_markdown(SETEXT, overlap_percent=0)

    assert [(c.title, c.line_start) for c in chunks] == [
        ("Project", 1),
        ("Project > Install", 6),
        ("Usage", 11),
    ]
    assert chunks[1].own_text == "Install\n-------\n\nRun pip."


def test_dashes_under_a_table_are_a_break_and_under_a_paragraph_a_heading() -> None:
    # A setext underline makes a heading of a paragraph only (GFM): a table is none.
    table = "# Page\n\nIntro.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n---\nText after the table.\n"
    paragraph = "# Page\n\nIntro.\n\nA short paragraph\n---\nText after the heading.\n"

    assert [c.title for c in chunk_markdown(table, overlap_percent=0)] == ["Page"]
    assert [c.title for c in chunk_markdown(paragraph, overlap_percent=0)] == [
        "Page",
        "Page > A short paragraph",
    ]


# go-chi/chi's README: a table of middlewares between two lines of dashes.
CHI_MIDDLEWARES = """## Middlewares

chi comes equipped with an optional `middleware` package, providing a suite of standard
`net/http` middlewares.

### Core middlewares

----------------------------------------------------------------------------------
| chi/middleware Handler | description                                           |
| :--------------------- | :---------------------------------------------------- |
| [AllowContentEncoding] | Enforces a whitelist of request Content-Encoding headers |
| [WithValue]            | Short-hand middleware to set a key/value on the request context |
----------------------------------------------------------------------------------

[AllowContentEncoding]: https://pkg.go.dev/github.com/go-chi/chi/middleware#AllowContentEncoding
[WithValue]: https://pkg.go.dev/github.com/go-chi/chi/middleware#WithValue

## context?

`context` is a tiny pkg that provides simple interface to signal context across call stacks
and goroutines.
"""


def test_a_table_between_lines_of_dashes_titles_nothing() -> None:
    chunks = chunk_markdown(CHI_MIDDLEWARES, overlap_percent=0, min_prose=MIN_PROSE_CHARS)

    assert [c.title for c in chunks] == [
        "Middlewares",
        "Middlewares > Core middlewares",
        "context?",
    ]
    assert chunks[1].own_text.startswith("### Core middlewares\n\n---")
    # With the table too big to share a chunk, the heading and its rule open the table's:
    # a rule under a heading is no text of its own.
    small = chunk_markdown(CHI_MIDDLEWARES, 200, 0, MIN_PROSE_CHARS)
    heading = next(c for c in small if "### Core middlewares" in c.own_text)
    assert "| [WithValue]" in heading.own_text


def test_an_unclosed_fence_in_a_list_item_ends_with_the_item() -> None:
    text = "# Setup\n\n1. Install:\n   ```bash\n   pip install x\n\n## Usage\n\nRun it.\n"

    chunks = chunk_markdown(text, overlap_percent=0)

    assert [c.title for c in chunks] == ["Setup", "Setup > Usage"]
    assert chunks[1].own_text == "## Usage\n\nRun it."


def test_a_fence_in_an_indented_code_block_hides_no_heading() -> None:
    text = "# Shell\n\nExample:\n\n    ```\n    echo hi\n\n# Later\n\nMore text.\n"

    chunks = chunk_markdown(text, overlap_percent=0)

    assert [c.title for c in chunks] == ["Shell", "Later"]
