"""A documentation section's code names joined by case are spelled out in its keywords, as
code entries' are: the keyword index reads ``blockStart`` as one word."""

from __future__ import annotations

from pathlib import Path

from engine.analyzer.pieces import code_identifier_words
from engine.services.indexing import Indexer
from engine.services.memory import Memory

PAGE = """# API

## Customizing Syntax

If you want different tokens for variables and blocks, give the `tags` option:

```js
var env = nunjucks.configure('views', {
  tags: { blockStart: '<%', variableStart: '<$' }
});
```

## Browsers

Works in JavaScript engines that GitHub lists; call `precompileString` first.
"""


def test_code_names_are_spelled_and_prose_names_are_not() -> None:
    assert code_identifier_words(PAGE, 10) == ["block start", "variable start", "precompile string"]
    assert code_identifier_words(PAGE, 1) == ["block start"]
    # a fence closes only with its own character; a span's text only, never the prose around
    assert code_identifier_words("~~~\n```\nfooBar\n~~~\nbazQux `oneTwo`\n", 10) == [
        "foo bar",
        "one two",
    ]


def test_a_section_is_found_by_the_words_of_its_code_names(tmp_path: Path, memory: Memory) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "api.md").write_text(PAGE, encoding="utf-8")
    assert Indexer(memory).run().errors == []
    hits = memory.search("variable start", mode="keyword").results
    assert [(h.entry.file_path, h.entry.section_title) for h in hits] == [
        ("docs/api.md", "API > Customizing Syntax")
    ]
    assert hits[0].entry.keywords == ("block start", "variable start")
