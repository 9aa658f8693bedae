"""mdBook's ``{{#title …}}`` names the browser tab's title: markup, never the page's text."""

from __future__ import annotations

from engine.markdown.parse import parse_markdown

PAGE = """{{#title Attributes — Rust ♡ C++}}
# Attributes

## namespace

The bridge takes a `namespace` argument.

```md
{{#title Shown as code}}
```
"""


def test_an_mdbook_title_line_is_blanked_line_for_line() -> None:
    body = parse_markdown(PAGE, "book/src/attributes.md").body.split("\n")
    assert body[0] == ""
    assert body[1:] == PAGE.split("\n")[1:]  # the others as written, code included
