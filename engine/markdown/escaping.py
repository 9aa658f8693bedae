"""Plain text as markdown that shows it: the escape every reader of a text format uses for
the lines it does not rewrite (plain text, Vim help, HTML pages' text, the prose formats).

A line is escaped only where markdown would read it as markup: a heading (``#``), a fence,
a setext underline or rule (``---``, ``===``), or an HTML block. A ``<`` that opens no HTML
block is text to markdown too (CommonMark's seven kinds of HTML block), so a Vim help
file's key ``<CR>  Open the file`` or a type's ``<T>`` keeps the text as written, not
``\\<CR>``.
"""

from __future__ import annotations

import re

_BLOCK_NAMES = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd"
    "|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset"
    "|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol"
    "|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr"
    "|track|ul"
)
"""CommonMark's block-level tag names (kind 6)."""
_ATTRIBUTE = r"""\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?"""
_HTML_BLOCK = re.compile(
    r"<(?:script|pre|style|textarea)(?:\s|>|$)"  # 1: raw text
    r"|<!--|<\?|<![A-Za-z]|<!\[CDATA\["  # 2–5: comment, instruction, declaration, CDATA
    rf"|</?(?:{_BLOCK_NAMES})(?:\s|/?>|$)"  # 6: a block-level tag
    rf"|</?[A-Za-z][A-Za-z0-9-]*(?:{_ATTRIBUTE})*\s*/?>\s*$",  # 7: any whole tag, alone
    re.IGNORECASE,
)
"""What opens an HTML block in CommonMark, at a line's start (its seven kinds)."""


def opens_html_block(stripped: str) -> bool:
    """Whether a line (its indentation stripped) would open an HTML block in markdown."""
    return _HTML_BLOCK.match(stripped) is not None


def escape_line(line: str) -> str:
    """A line of plain text as markdown that shows it: a line that would open markup (a
    heading, a fence, a rule or setext underline, an HTML block) is escaped; indentation
    is kept."""
    stripped = line.lstrip()
    if stripped.startswith(("#", "```", "~~~", "---", "===")) or (
        stripped.startswith("<") and opens_html_block(stripped)
    ):
        return line[: len(line) - len(stripped)] + "\\" + stripped
    return line
