"""AsciiDoc documents (Asciidoctor, Antora sites) read as the markdown the chunker understands.

:func:`asciidoc_as_markdown` rewrites an ``.adoc`` file line by line, the number of lines
unchanged (chunks cite the file's own lines), after the AsciiDoc language's own syntax
(docs.asciidoctor.org, "AsciiDoc Language"):

* section titles (``= Document``, ``== Section`` … six ``=`` at most, or the same with
  ``#``) become ATX headings of their level, and so do two-line titles, underlined with
  ``=``, ``-``, ``~``, ``^`` or ``+`` (levels 0 to 4) as long as the title within one
  character (Asciidoctor's rule; git's manual pages are written so: ``SYNOPSIS`` over
  ``--------``, which would otherwise open a listing block);
* delimited blocks: a listing or literal block (``----``, ``....``) becomes a fenced code
  block; the contents of a comment block (``////``) and of a passthrough block (``++++``,
  raw HTML or the like) are blanked, their delimiters too; the delimiters of the blocks
  whose contents are prose (``====`` example, ``****`` sidebar, ``____`` quote, ``--``
  open block) and of tables (``|===``) are blanked and their contents kept;
* line comments (``// …``), attribute entries (``:toc: left``), block attribute lines
  (``[source,java]``, ``[NOTE]``), block anchors (``[[id]]``) and directives that show no
  text (``include::``, ``image::``, ``toc::``, ``ifdef::`` and the like) are blanked;
* cross references and links show their text: ``xref:install.adoc[the install guide]``,
  ``link:https://…[the site]``, ``https://…[the site]`` and ``<<id,text>>`` become the text
  in brackets (the target when there is none).

Linear in the text's length; nothing is evaluated (no includes, no attributes resolved).
"""

from __future__ import annotations

import re

ASCIIDOC_SUFFIXES = (".adoc", ".asciidoc")

_TITLE = re.compile(r"^(={1,6}|#{1,6})[ \t]+(\S.*?)[ \t]*(?:[ \t]\1)?$")
_CODE_DELIMITERS = re.compile(r"^(-{4,}|\.{4,})[ \t]*$")
_TWO_LINE_TITLE = re.compile(r"^[^\W_].*$")
"""The first line of a two-line title: it starts with a letter or a digit."""
_UNDERLINES = {"=": 1, "-": 2, "~": 3, "^": 4, "+": 5}
"""A two-line title's underline character and the markdown level it makes."""
_HIDDEN_DELIMITERS = re.compile(r"^(/{4,}|\+{4,})[ \t]*$")
_PROSE_DELIMITERS = re.compile(r"^(={4,}|\*{4,}|_{4,}|--|[|,:!]={3,})[ \t]*$")
_BLANKED = re.compile(
    r"^(?://(?!/).*|//|:!?[\w-]+!?:.*|\[\[[^\]]*\]\]|\[[^\]]*\]"
    r"|(?:include|image|toc|ifdef|ifndef|ifeval|endif|video|audio)::.*)$"
)
_XREF = re.compile(r"\b(?:xref|link|mailto):([^\s\[]+)\[([^\]]*)\]")
_URL_TEXT = re.compile(r"\b(https?://[^\s\[]+)\[([^\]]*)\]")
_ANCHOR_REF = re.compile(r"<<([^,>]+)(?:,\s*([^>]+))?>>")


def asciidoc_as_markdown(text: str) -> str:
    """``text`` (AsciiDoc) rewritten as markdown, line for line (module docstring)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    open_block = ""  # the delimiter of the delimited block we are in
    underlined = -1  # the underline of the two-line title above, blanked
    for index, line in enumerate(lines):
        stripped = line.rstrip()
        if index == underlined:
            lines[index] = ""
            continue
        if open_block:
            if stripped == open_block:
                lines[index] = "```" if _CODE_DELIMITERS.match(stripped) else ""
                open_block = ""
            elif _HIDDEN_DELIMITERS.match(open_block):
                lines[index] = ""
            continue
        if (level := _title_level(stripped, lines, index)) is not None:
            lines[index], underlined = "#" * level + " " + _shown(stripped), index + 1
        elif _CODE_DELIMITERS.match(stripped):
            open_block, lines[index] = stripped, "```"
        elif _HIDDEN_DELIMITERS.match(stripped):
            open_block, lines[index] = stripped, ""
        elif _PROSE_DELIMITERS.match(stripped) or _BLANKED.match(stripped):
            lines[index] = ""
        elif match := _TITLE.match(stripped):
            lines[index] = "#" * len(match[1]) + " " + _shown(match[2])
        else:
            lines[index] = _shown(line)
    return "\n".join(lines)  # an unclosed listing block stays code to the end, as in AsciiDoc


def _title_level(title: str, lines: list[str], index: int) -> int | None:
    """The markdown level of a two-line title whose first line is ``lines[index]``
    (``title``, stripped), or ``None`` when the next line does not underline it."""
    if index + 1 >= len(lines) or not _TWO_LINE_TITLE.match(title):
        return None
    under = lines[index + 1].rstrip()
    if len(under) < 2 or under[0] not in _UNDERLINES or under != under[0] * len(under):
        return None
    return _UNDERLINES[under[0]] if abs(len(under) - len(title)) <= 1 else None


def _shown(line: str) -> str:
    """``line`` with its references and links as the text they show."""
    if "[" in line:
        line = _XREF.sub(lambda m: m[2] or m[1], line)
        line = _URL_TEXT.sub(lambda m: m[2] or m[1], line)
    if "<<" in line:
        line = _ANCHOR_REF.sub(lambda m: (m[2] or m[1]).strip(), line)
    return line
