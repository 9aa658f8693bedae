"""Documentation in the other prose formats GitHub Linguist names, read as markdown.

Linguist's prose languages (:func:`engine.analyzer.linguist.prose_language`) are what a
project may write its documentation in. Markdown and its dialects, reStructuredText,
AsciiDoc and plain text have readers of their own. The others have one here:

- Org and Muse (Emacs);
- Pod and Pod 6 (Perl and Raku);
- RDoc (Ruby);
- Textile;
- Texinfo (GNU manuals);
- Wikitext (MediaWiki) and Creole;
- Sweave (LaTeX with R), LaTeX (``.tex``) and R's documentation (``.Rd``), which
  Linguist counts as markup and code: their names say they are documentation.

Each keeps every line's number (chunks cite the file's own lines):

- a heading in the format's own syntax becomes a markdown heading of its level;
- a code or example block becomes a fence;
- the format's commands and directives are blanked;
- inline markup becomes the text it shows (``C<open>``, ``@code{make}``,
  ``[[Page|label]]``);
- every other line is text, escaped where markdown would read it as markup.

A format without a reader here is read as plain text. The rules are the formats' own
syntax, as their references define it, one table per language (:data:`READERS`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from engine.markdown.escaping import escape_line


@dataclass(frozen=True, slots=True)
class Reader:
    """One format's syntax: a heading (level, title), a block's opening (its language) and
    closing, directive lines to blank, inline markup to unwrap."""

    heading: Callable[[str], tuple[int, str] | None]
    opens: re.Pattern[str] | None = None
    closes: re.Pattern[str] | None = None
    directive: re.Pattern[str] | None = None
    inline: tuple[tuple[re.Pattern[str], str], ...] = ()


def _by_marks(pattern: str, title_group: int = 2) -> Callable[[str], tuple[int, str] | None]:
    """A heading whose level is the length of its first group (``** Title``, ``== Title``)."""
    compiled = re.compile(pattern)

    def heading(line: str) -> tuple[int, str] | None:
        found = compiled.match(line)
        if found is None:
            return None
        return len(found.group(1)), found.group(title_group).strip()

    return heading


def _by_table(pattern: str, levels: dict[str, int]) -> Callable[[str], tuple[int, str] | None]:
    """A heading named by a command (``=head2 Title``, ``@section Title``)."""
    compiled = re.compile(pattern)

    def heading(line: str) -> tuple[int, str] | None:
        found = compiled.match(line)
        if found is None or found.group(1) not in levels:
            return None
        return levels[found.group(1)], found.group(2).strip()

    return heading


_TEXINFO_LEVELS = {
    **dict.fromkeys(("top", "chapter", "unnumbered", "appendix", "majorheading",
                     "chapheading"), 1),
    **dict.fromkeys(("section", "unnumberedsec", "appendixsec", "heading"), 2),
    **dict.fromkeys(("subsection", "unnumberedsubsec", "appendixsubsec", "subheading"), 3),
    **dict.fromkeys(("subsubsection", "unnumberedsubsubsec", "appendixsubsubsec",
                     "subsubheading"), 4),
}  # fmt: skip
_LATEX_LEVELS = {"part": 1, "chapter": 1, "section": 2, "subsection": 3, "subsubsection": 4}
_POD_HEADING = _by_table(r"^=(head[1-6])\s+(.*)$", {f"head{n}": n for n in range(1, 7)})
"""``=head1 NAME`` … ``=head6``: Pod's headings, and Pod 6's."""
_WIKI_LINK = (re.compile(r"\[\[(?:[^|\]]*\|)?([^\]]*)\]\]"), r"\1")
_POD_CODE = (re.compile(r"[A-Z]<<+\s+(.+?)\s+>>+|[A-Z]<([^<>]*)>"), r"\1\2")
"""``C<text>``, and ``C<< text >>`` whose text may hold ``<`` and ``>`` (perlpod)."""

READERS: dict[str, Reader] = {
    "Org": Reader(
        _by_marks(r"^(\*+)\s+(?:(?:TODO|DONE)\s+)?(.+?)(?:\s+:[\w@#%:]+:)?\s*$"),
        re.compile(r"^\s*#\+begin_(?:src|example)(?:\s+([\w+-]+))?", re.IGNORECASE),
        re.compile(r"^\s*#\+end_(?:src|example)", re.IGNORECASE),
        re.compile(r"^\s*#\+\w+:?(?!\S)"),
        (
            (re.compile(r"\[\[[^\]]*\]\[([^\]]*)\]\]"), r"\1"),
            (re.compile(r"\[\[([^\]]*)\]\]"), r"\1"),
        ),
    ),
    "Muse": Reader(
        _by_marks(r"^(\*{1,5})\s+(.+)$"),
        re.compile(r"^\s*<(?:example|src)(?:\s+lang=\"?([\w+-]+)\"?)?[^>]*>\s*$"),
        re.compile(r"^\s*</(?:example|src)>\s*$"),
        re.compile(r"^#\w+\s"),
    ),
    "Pod": Reader(
        _POD_HEADING,
        directive=re.compile(r"^=(?:pod|cut|over|back|begin|end|for|encoding)\b"),
        inline=(_POD_CODE, (re.compile(r"^=item\s+(?:\*\s*)?(.*)$"), r"- \1")),
    ),
    "Pod 6": Reader(
        _POD_HEADING,
        directive=re.compile(r"^=(?:pod|begin|end|for|config|encoding)\b"),
        inline=(_POD_CODE, (re.compile(r"^=item\d?\s+(.*)$"), r"- \1")),
    ),
    "RDoc": Reader(_by_marks(r"^(={1,6})\s*(.+)$"), directive=re.compile(r"^:\w+:")),
    "Textile": Reader(
        lambda line: (
            (int(m.group(1)), m.group(2).strip())
            if (m := re.match(r"^h([1-6])(?:\([^)]*\)|\{[^}]*\}|\[[^\]]*\])*\.\s+(.+)$", line))
            else None
        ),
    ),
    "Texinfo": Reader(
        _by_table(r"^@(\w+)\s+(.*)$", _TEXINFO_LEVELS),
        re.compile(r"^@(?:example|smallexample|lisp|smalllisp|verbatim|display)\b()"),
        re.compile(r"^@end\s+(?:example|smallexample|lisp|smalllisp|verbatim|display)\b"),
        re.compile(r"^@(?!item\b)[a-zA-Z]+\b|^@c(?:omment)?\b|^\\input\b"),
        (
            (re.compile(r"^@itemx?\s*$"), ""),
            (re.compile(r"^@itemx?\s+(.*)$"), r"- \1"),
            (re.compile(r"@[a-zA-Z]+\{([^{}]*)\}"), r"\1"),
            (re.compile(r"@([@{}])"), r"\1"),
        ),
    ),
    "Wikitext": Reader(
        _by_marks(r"^(={1,6})\s*(.+?)\s*=*\s*$"),
        re.compile(r"^\s*<(?:pre|syntaxhighlight|source)(?:\s+lang=\"?([\w+-]+)\"?)?[^>]*>\s*$"),
        re.compile(r"^\s*</(?:pre|syntaxhighlight|source)>\s*$"),
        inline=(_WIKI_LINK, (re.compile(r"'{2,3}"), "")),
    ),
    "Creole": Reader(
        _by_marks(r"^\s*(={1,6})\s*(.+?)\s*=*\s*$"),
        re.compile(r"^\{\{\{\s*$()"),
        re.compile(r"^\}\}\}\s*$"),
        inline=(_WIKI_LINK,),
    ),
    "Sweave": Reader(
        _by_table(
            r"^\\(part|chapter|section|subsection|subsubsection)\*?\{(.*)\}\s*$", _LATEX_LEVELS
        ),
        re.compile(r"^<<[^>]*>>=\s*$()"),
        re.compile(r"^@\s*$"),
        re.compile(r"^\\[a-zA-Z]+(?:\[[^\]]*\])?(?:\{[^}]*\})*\s*$|^%"),
    ),
}
"""The formats read here, by Linguist's name for them."""

_TEX_CODE = r"(?:verbatim\*?|Verbatim|lstlisting|minted|alltt)"
_TEX_TITLE = r"((?:[^{}]|\{[^{}]*\})*)"
"""A title in braces, which may hold one level of braces of its own (``{\\tt name}``)."""
READERS["TeX"] = Reader(
    _by_table(
        rf"^\s*\\(title|part|chapter|section|subsection|subsubsection|paragraph)\*?"
        rf"(?:\[[^\]]*\])?\{{{_TEX_TITLE}\}}\s*(?:\\label\{{[^{{}}]*\}})?\s*(?:%.*)?$",
        {"title": 1, **_LATEX_LEVELS, "paragraph": 5},
    ),
    re.compile(rf"^\s*\\begin\{{{_TEX_CODE}\}}(?:\[[^\]]*\])?(?:\{{([\w+-]+)\}})?"),
    re.compile(rf"^\s*\\end\{{{_TEX_CODE}\}}"),
    re.compile(
        r"^\s*(?:%|\\(?:documentclass|usepackage|begin|end|maketitle|tableofcontents|label"
        r"|newcommand|renewcommand|providecommand|def|setlength|addtolength|pagestyle"
        r"|thispagestyle|input|include|bibliography|bibliographystyle|author|date|clearpage"
        r"|newpage|index|appendix|noindent|centering|vspace|hspace|small|footnotesize"
        r"|printindex|makeindex)\b)"
    ),
    (
        (re.compile(r"(?<!\\)%.*$"), ""),  # a comment to the end of the line
        (re.compile(r"\\verb\*?([^\w\s])(.*?)\1"), r"`\2`"),
        (re.compile(r"\\(?:texttt|code|lstinline|path)\{([^{}]*)\}"), r"`\1`"),
        (re.compile(r"\{\\tt\s+([^{}]*)\}"), r"`\1`"),
        (re.compile(r"\{\\(?:bf|it|em|sl|sf|sc|rm)\s+([^{}]*)\}"), r"\1"),
        (re.compile(r"^(\s*)\\item\[([^\]]*)\]\s*"), r"\1- \2: "),
        (re.compile(r"^(\s*)\\item\b\s*"), r"\1- "),
        (re.compile(r"\\href\{[^{}]*\}\{([^{}]*)\}"), r"\1"),
        (re.compile(r"\\(?:label|index|cite|nocite|[hv]space)\*?(?:\[[^\]]*\])?\{[^{}]*\}"), ""),
        (re.compile(r"\\[a-zA-Z]+\*?(?:\[[^\]]*\])?\{([^{}]*)\}"), r"\1"),
        (re.compile(r"\\([_%&#${}])"), r"\1"),
        (re.compile(r"\\\\|~"), " "),
    ),
)
"""LaTeX (``.tex``): its sectioning commands, its verbatim, listings and minted
environments as code, its preamble and structure commands blanked, its font and
reference commands as the text they show."""

_RD_SECTIONS = {
    "description": "Description", "usage": "Usage", "arguments": "Arguments",
    "value": "Value", "details": "Details", "examples": "Examples", "seealso": "See also",
    "note": "Note", "references": "References", "author": "Author", "format": "Format",
    "source": "Source",
}  # fmt: skip
_RD_HEADING = re.compile(r"^\\(\w+)\{(?:(.*)\}\{)?\s*$|^\\title\{(.*)\}\s*$")


def _rd_heading(line: str) -> tuple[int, str] | None:
    """An Rd file's title (level 1), and each of its sections opened on a line of its
    own: ``\\description{``, ``\\section{Title}{``, ``\\subsection{Title}{``."""
    found = _RD_HEADING.match(line)
    if found is None:
        return None
    command, named, title = found.groups()
    if title is not None:
        return 1, title
    if command in ("section", "subsection") and named:
        return (2 if command == "section" else 3), named
    if command in _RD_SECTIONS and named is None:
        return 2, _RD_SECTIONS[command]
    return None


READERS["Rd"] = Reader(
    _rd_heading,
    directive=re.compile(
        r"^%|^\\(?:name|alias|docType|keyword|encoding|concept|Rdversion|RdOpts)\{.*\}\s*$"
        r"|^\s*\}\s*$"
    ),
    inline=(
        (re.compile(r"^(\s*)\\item\{([^{}]*)\}\{"), r"\1- \2: "),
        (re.compile(r"\\cr\b"), ""),
        (
            re.compile(r"\\(?:code|env|option|command|samp|verb|kbd|file|var|pkg)\{([^{}]*)\}"),
            r"`\1`",
        ),
        (re.compile(r"\\link(?:\[[^\]]*\])?\{([^{}]*)\}"), r"\1"),
        (re.compile(r"\\href\{[^{}]*\}\{([^{}]*)\}"), r"\1"),
        (re.compile(r"\\(?:sQuote|dQuote)\{([^{}]*)\}"), r'"\1"'),
        (re.compile(r"\\[a-zA-Z]+\{([^{}]*)\}"), r"\1"),
        (re.compile(r"\\([{}%\\])"), r"\1"),
        (re.compile(r"(?<=[\w.)\]\"'`])\}\s*$"), ""),  # the brace closing an item's text
    ),
)
"""R's documentation (``.Rd``, ``man/`` of an R package): its title and sections as
headings, an argument's ``\\item{name}{text}`` as a list item, its markup as the text it
shows."""

OWN_DIALECTS = frozenset(
    {
        "markdown",
        "docc",
        "restructuredtext",
        "asciidoc",
        "odoc",
        "text",
        "man",
        "yaml",
        "notebook",
        "html",
        "xml",
    }
)
"""The dialects that have readers of their own (:func:`engine.markdown.rst.as_markdown`)."""


def markup_as_markdown(text: str, language: str) -> str:
    """``text`` in the prose format ``language`` (Linguist's name; of ``Pod/Pod 6``, the
    first with a reader) rewritten as markdown, line for line (module docstring); a format
    without a reader here as plain text."""
    reader = next((READERS[n] for n in language.split("/") if n in READERS), None)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if reader is None:
        return "\n".join(escape_line(line) for line in lines)
    out: list[str] = []
    in_block = False
    for line in lines:
        if in_block:
            if reader.closes is not None and reader.closes.match(line):
                in_block = False
                out.append("```")
            else:
                out.append(line.replace("```", "` ``"))
            continue
        if reader.opens is not None and (opened := reader.opens.match(line)):
            in_block = True
            out.append("```" + ((opened.group(1) or "") if opened.groups() else ""))
            continue
        if (heading := reader.heading(line)) is not None and heading[1]:
            level, title = heading
            out.append("#" * min(level, 6) + " " + _unwrap(title, reader))
        elif reader.directive is not None and reader.directive.match(line):
            out.append("")
        else:
            out.append(escape_line(_unwrap(line, reader)))
    return "\n".join(out)  # a block never closed runs to the end, as markdown reads it


def _unwrap(line: str, reader: Reader) -> str:
    """``line`` with the format's inline markup replaced by the text it shows."""
    for pattern, replacement in reader.inline:
        for _ in range(4):  # nested markup (``B<C<x>>``, ``@code{@var{x}}``) a level at a time
            changed = pattern.sub(replacement, line)
            if changed == line:
                break
            line = changed
    return line
