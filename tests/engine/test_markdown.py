"""Tests for parsing knowledge files: front matter, directives, code fences."""

from __future__ import annotations

from engine.markdown.parse import FenceRole, blank_html_comments, fence_roles, parse_markdown


def test_front_matter_is_parsed_and_removed_from_body() -> None:
    parsed = parse_markdown(
        "---\ntitle: Deploy\ncategory: gotcha\nkeywords: [helm, argo]\n---\n# Body\ntext\n"
    )

    assert parsed.front_matter == {
        "title": "Deploy",
        "category": "gotcha",
        "keywords": ["helm", "argo"],
    }
    assert parsed.category == "gotcha"
    assert parsed.keywords == ("helm", "argo")
    assert parsed.body == "# Body\ntext\n"
    assert parsed.body_line_offset == 5
    assert parsed.index is True
    assert parsed.warnings == ()


def test_front_matter_closed_by_dots_and_keywords_as_comma_text() -> None:
    parsed = parse_markdown("---\nkeywords: a, b ,, c\n...\nbody")

    assert parsed.keywords == ("a", "b", "c")
    assert parsed.body == "body"


def test_no_front_matter() -> None:
    parsed = parse_markdown("# Title\n\n---\nnot: front matter\n---\n")

    assert parsed.front_matter == {}
    assert parsed.body_line_offset == 0
    assert parsed.body == "# Title\n\n---\nnot: front matter\n---\n"
    assert parsed.category is None
    assert parsed.warnings == ()


def test_broken_yaml_warns_and_skips_the_block() -> None:
    parsed = parse_markdown("---\ntitle: ok\nbad: [unclosed\n---\n# Body\n")

    assert parsed.front_matter == {}
    assert parsed.body == "# Body\n"
    assert parsed.body_line_offset == 4
    assert len(parsed.warnings) == 1
    assert "not valid YAML" in parsed.warnings[0]
    assert parsed.warnings[0].startswith("line ")


def test_front_matter_that_is_not_a_mapping_warns() -> None:
    parsed = parse_markdown("---\n- just\n- a list\n---\nbody\n")

    assert parsed.front_matter == {}
    assert parsed.body == "body\n"
    assert parsed.warnings == (
        "line 1: front matter ignored, it is not a mapping of keys to values",
    )


def test_unclosed_front_matter_is_text_with_a_warning() -> None:
    parsed = parse_markdown("---\ntitle: x\n# Body\n")

    assert parsed.front_matter == {}
    assert parsed.body_line_offset == 0
    assert parsed.body == "---\ntitle: x\n# Body\n"
    assert parsed.warnings and "line 1" in parsed.warnings[0]


def test_empty_front_matter_and_empty_file() -> None:
    assert parse_markdown("---\n---\nbody").body == "body"
    assert parse_markdown("").body == ""
    assert parse_markdown("").warnings == ()


def test_non_text_category_warns_with_its_line() -> None:
    parsed = parse_markdown("---\ntitle: x\ncategory: 12\n---\n")

    assert parsed.category is None
    assert parsed.warnings == ("line 3: category must be text",)


def test_front_matter_can_disable_vector_index() -> None:
    assert parse_markdown("---\nvector-index: false\n---\nx").index is False
    assert parse_markdown("---\nvector_index: false\n---\nx").index is False
    assert parse_markdown("---\nvector-index: true\n---\nx").index is True


def test_vector_index_directive_is_case_and_space_insensitive() -> None:
    parsed = parse_markdown("# T\n<!--  Vector-Index : FALSE -->\ntext\n")

    assert parsed.index is False
    assert parsed.warnings == ()
    # The directive is blanked out in place, so the body keeps its line numbers.
    assert parsed.body == "# T\n\ntext\n"


def test_keywords_are_merged_deduplicated_and_ordered() -> None:
    parsed = parse_markdown(
        "---\nkeywords: [alpha, beta]\n---\n"
        "<!-- keywords: gamma, Alpha -->\n"
        "text <!-- KEYWORDS: delta ,  , beta --> more\n"
    )

    assert parsed.keywords == ("alpha", "beta", "gamma", "delta")
    assert parsed.body == "\ntext  more\n"


def test_bad_directives_warn_with_line_numbers() -> None:
    parsed = parse_markdown("---\nt: 1\n---\n<!-- vector-index: maybe -->\n\n<!-- keywords: -->\n")

    assert parsed.index is True
    assert parsed.keywords == ()
    assert parsed.warnings == (
        "line 4: vector-index must be true or false, not 'maybe'",
        "line 6: keywords directive has no keywords",
    )


def test_unknown_comments_and_prose_are_ignored() -> None:
    parsed = parse_markdown("<!-- TODO: fix -->\n<!-- keywords are nice -->\n<!-- plain -->\n")

    assert parsed.warnings == ()
    assert parsed.keywords == ()
    assert parsed.body == "<!-- TODO: fix -->\n<!-- keywords are nice -->\n<!-- plain -->\n"


def test_directives_in_code_are_not_directives() -> None:
    text = (
        "```markdown\n<!-- vector-index: false -->\n```\n"
        "~~~~\n```\n<!-- keywords: fenced -->\n~~~~\n"
        "Use `<!-- keywords: quoted -->` to tag a file.\n"
    )

    parsed = parse_markdown(text)

    assert parsed.index is True
    assert parsed.keywords == ()
    assert parsed.body == text


def test_too_many_and_too_long_keywords_are_dropped_with_warnings() -> None:
    many = ", ".join(f"k{i}" for i in range(12))
    parsed = parse_markdown(f"<!-- keywords: {many} -->\n<!-- keywords: {'x' * 51} -->\n")

    assert parsed.keywords == tuple(f"k{i}" for i in range(10))
    assert len(parsed.warnings) == 2
    assert any("line 2" in w and "longer than 50" in w for w in parsed.warnings)
    assert any("line 1" in w and "k10, k11" in w for w in parsed.warnings)


def test_crlf_and_cr_are_normalised() -> None:
    parsed = parse_markdown("---\r\ncategory: domain\r\n---\r\n# A\r\ntext\rmore\r\n")

    assert parsed.category == "domain"
    assert parsed.body == "# A\ntext\nmore\n"
    assert "\r" not in parsed.body


def test_body_line_offset_maps_lines_back_to_the_original_file() -> None:
    original = "---\ntitle: Map\nkeywords: [a]\n---\nintro\n\n## Heading\nbody\n"

    parsed = parse_markdown(original)
    body_line = parsed.body.split("\n").index("## Heading") + 1

    assert body_line + parsed.body_line_offset == 7
    assert original.split("\n")[body_line + parsed.body_line_offset - 1] == "## Heading"


def test_fence_roles_follow_fence_length_and_character() -> None:
    lines = ["````", "```", "~~~", "````", "text", "  ~~~ yaml", "x", "~~~~", "```a`b"]

    assert fence_roles(lines) == [
        FenceRole.OPEN,
        FenceRole.BODY,
        FenceRole.BODY,
        FenceRole.CLOSE,
        FenceRole.NONE,
        FenceRole.OPEN,
        FenceRole.BODY,
        FenceRole.CLOSE,
        FenceRole.NONE,
    ]


def test_fences_in_blockquotes_and_list_items_are_fences() -> None:
    lines = ["> ```shell", "> # comment", "> ```", "1. step", "    ```yaml", "    a: 1", "    ```"]

    assert fence_roles(lines) == [
        FenceRole.OPEN,
        FenceRole.BODY,
        FenceRole.CLOSE,
        FenceRole.NONE,
        FenceRole.OPEN,
        FenceRole.BODY,
        FenceRole.CLOSE,
    ]


def test_unclosed_fence_runs_to_the_end() -> None:
    assert fence_roles(["```", "a", "<!-- x -->"]) == [
        FenceRole.OPEN,
        FenceRole.BODY,
        FenceRole.BODY,
    ]


def test_blank_html_comments_keeps_line_numbers_and_fenced_comments() -> None:
    text = "# G\n\n<!-- guidance\n## Not a heading\n-->\ntext\n```html\n<!-- kept -->\n```\n"

    blanked = blank_html_comments(text)

    assert blanked.count("\n") == text.count("\n")
    assert "guidance" not in blanked and "Not a heading" not in blanked
    assert "<!-- kept -->" in blanked
    assert blanked.splitlines()[5] == "text"


def test_a_directive_in_indented_code_is_not_applied() -> None:
    parsed = parse_markdown("# T\n\nExample:\n\n    <!-- vector-index: false -->\n")

    assert parsed.index is True
    assert "<!-- vector-index: false -->" in parsed.body


MDX = """---
title: Guide
---
import Tabs from '@theme/Tabs';
import {
  TabItem,
} from '@theme/TabItem';
export const meta = { draft: false };

# Install

<Tabs
  defaultValue="pip">
<TabItem value="pip">

Run `pip install tool`.

</TabItem>
</Tabs>
{/* a comment for editors */}

```js
import x from 'y';
```
"""


def test_mdx_drops_esm_and_jsx_lines_and_keeps_text_code_and_lines() -> None:
    parsed = parse_markdown(MDX, "docs/guide.mdx")

    lines = parsed.body.split("\n")
    assert len(lines) == len(MDX.split("\n")) - parsed.body_line_offset
    kept = [line for line in lines if line.strip()]
    assert kept == ["# Install", "Run `pip install tool`.", "```js", "import x from 'y';", "```"]
    assert lines.index("# Install") + 1 + parsed.body_line_offset == 10
    # The same file read as plain markdown keeps every line.
    assert "import Tabs from '@theme/Tabs';" in parse_markdown(MDX, "guide.md").body
    assert parse_markdown(MDX, "guide.markdown").body == parse_markdown(MDX).body
