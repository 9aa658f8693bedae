"""Vim help files (a plugin's ``doc/*.txt``) read as the sectioned documents they are, and
the escape every plain-text reader uses, which keeps a line's text as written where
markdown would read no markup in it (a key's ``<CR>``)."""

from __future__ import annotations

from markdown_it import MarkdownIt

from engine.markdown.escaping import escape_line


def test_a_line_is_escaped_only_where_markdown_would_read_an_html_block() -> None:
    kept = ["<CR>          Open the file.", "<C-R><C-G>    Recall the path.", "<T> is a type"]
    escaped = ["<CR>", "<div class=note>", "<!-- note -->", "</p>", "<script>"]
    parser = MarkdownIt("commonmark")
    for line in kept + escaped:
        html = any(token.type == "html_block" for token in parser.parse(line))
        assert (escape_line(line) != line) is html, line
        assert not any(t.type == "html_block" for t in parser.parse(escape_line(line))), line
    assert escape_line("    <CR>  Open.") == "    <CR>  Open."
    assert escape_line("# not a heading") == "\\# not a heading"
