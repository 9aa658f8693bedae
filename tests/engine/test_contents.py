"""A page's own table of contents is navigation, blanked line for line before chunking."""

from __future__ import annotations

from engine.markdown.chunking import chunk_markdown
from engine.markdown.contents import blank_contents

CATCH_STYLE = """<a id="top"></a>
# String conversions

**Contents**<br>
[operator << overload for ostream](#operator--overload-for-ostream)<br>
[StringMaker specialisation](#stringmaker-specialisation)<br>
[Enums](#enums)<br>

Catch needs to convert the types you use in assertions to strings to print them.

## Enums

An enum is printed by its value.
"""

GITHUB_STYLE = """# Tool

## Table of Contents

- [Install](#install)
  - [Linux](#linux)
- [Usage](#usage)

## Install

See [Usage](#usage) first, and [the site](https://example.com).

- [Linux](#linux): run the script.

```markdown
- [Install](#install)
- [Usage](#usage)
```
"""


def test_a_contents_list_its_label_and_bare_anchors_are_blanked_line_for_line() -> None:
    lines = CATCH_STYLE.split("\n")
    out = blank_contents(lines)
    assert len(out) == len(lines)
    assert not any("](#" in line or "Contents" in line or "<a id" in line for line in out)
    assert "Catch needs to convert the types you use in assertions to strings to print them." in out
    assert out[1] == "# String conversions" and "## Enums" in out


def test_prose_with_links_code_and_other_headings_stay() -> None:
    lines = GITHUB_STYLE.split("\n")
    out = blank_contents(lines)
    assert "## Table of Contents" not in out and out[-4] == "- [Install](#install)"
    assert [line for line in out if "](#" in line] == [
        "See [Usage](#usage) first, and [the site](https://example.com).",
        "- [Linux](#linux): run the script.",  # says something besides its link
        "- [Install](#install)",  # in a code block: shown as it is
        "- [Usage](#usage)",
    ]
    assert blank_contents(["- [Only one](#one)"]) == ["- [Only one](#one)"]


def test_the_first_entry_of_a_page_says_what_the_page_is_for() -> None:
    first = chunk_markdown(CATCH_STYLE)[0]
    assert first.title == "String conversions"
    assert first.own_text.split("\n")[0] == "# String conversions"
    assert "](#" not in first.own_text and "Catch needs to convert" in first.own_text
