"""Documentation that is neither markdown nor reStructuredText nor AsciiDoc: man pages
(roff), Vim help files, odoc pages (OCaml's ``.mld``) and plain-text docs, read as the
markdown the chunker understands.

What a ``.txt`` file is comes from its content, never from a list of names:

* a Vim help file (:func:`engine.markdown.vim_help.is_vimdoc`), in a ``doc/`` folder,
  opens with its tag line ``*name.txt*`` or ends with a ``vim:…ft=help`` modeline; its
  sections, subheadings and examples are read by :mod:`engine.markdown.vim_help`;
* a plain-text document (:func:`reads_as_prose`) is mostly words in sentences:
  ``requirements.txt`` (``pkg==1.0``), ``CMakeLists.txt`` (``add_library(x …)``), a list of
  names or a listing of code signatures (``go doc``'s output) are not;
* a markdown document (:func:`is_markdown`) writes an ATX heading and a fenced code block
  or links (pandoc's ``MANUAL.txt``, an ``llms.txt``, ExDoc's ``.cheatmd`` cheat sheets, a
  ``README`` in markdown): it is read as the markdown it is;
* a man page (:func:`is_roff`) is roff: its requests (``.TH``, ``.SH``, ``.Dd``, ``.Sh``…)
  start lines; section requests become headings, text requests are dropped, font escapes
  (``\\fB…\\fR``) and the other escapes become the text they show.

An odoc page's headings (``{1 Title}``, ``{2:label Section}``) become headings, its code
blocks (``{[ … ]}``, ``{v … v}``, ``{@sh[ … ]}``) fences, and a reference
(``{!Cmdliner.Arg}``) its name.

Every rewrite keeps the number of lines (chunks cite the file's own lines). Linear in the
text; nothing is run.
"""

from __future__ import annotations

import re

from engine.markdown.escaping import escape_line
from engine.markdown.vim_help import is_vimdoc, vimdoc_as_markdown

ROFF_SUFFIX = re.compile(r"\.(?:[1-9][a-z]{0,3}|man|mdoc)$", re.IGNORECASE)
"""A man page's name: section 1–9 (``fd.1``, ``printf.3p``), ``.man`` or ``.mdoc``."""
TEXT_SUFFIX = ".txt"
ODOC_SUFFIX = ".mld"

PROSE_MIN_WORDS = 20
"""A plain-text file of fewer words is not a document (a list of names, a version)."""
PROSE_WORD_SHARE = 0.6
"""The share of its tokens that must be words for a plain-text file to read as prose."""
CODE_LINE_SHARE = 0.4
"""A plain-text file with this share of its lines written like code is a listing."""
SNIFF_CHARS = 20_000
"""How much of a file's start its kind is read from."""

_WORD = re.compile(r"^[(\"'“‘]?[A-Za-z][a-z'’-]*[)\"'”’.,;:!?]*$")
_PROSE_WORDS = re.compile(r"(?<!\S)" + _WORD.pattern.strip("^$") + r"(?!\S)")
""":data:`_WORD` over a whole text: each whitespace-separated token that is a word, found
in one pass (a walk judges thousands of files by their first 20,000 characters)."""
_CODE_LINE = re.compile(r"[(){}\[\];=]|^\s*(?:func|type|var|const|def|class)\s")
SENTENCE_END = re.compile(r"[a-z][.!?](?:\s|$)")
"""A sentence's end: a lowercase letter, then a full stop, a question or an exclamation mark."""
_LATEX_STRUCTURE = re.compile(
    r"^[ \t]*\\(?:(?:sub)*section|chapter|part|paragraph|begin)\*?\{", re.MULTILINE
)
MAX_TITLE = 80
"""The longest line plain text underlines as a title."""
_UNDERLINE = re.compile(r"^[ \t]*([=\-~^*+#])\1{2,}[ \t]*$")
_BANNER = re.compile(r"^[ \t]*([#=*~/+-])\1{2,}[ \t]+(?P<title>\w.{0,78}?)[ \t]+\1{3,}[ \t]*$")
"""A title between runs of one symbol: ``##### NETWORK #####``, ``=== Options ===``."""
_ROFF_REQUEST = re.compile(r"^[.'](?:\\\"|(?:TH|SH|Dd|Dt|Sh|SS|Ss|Nm|PP|TP|B|I)\b)")
"""A line only roff writes: a comment (``.\\"``, ``'\\"``) or a man page's request."""
_ROFF_LINE = re.compile(r"^[.']\s*([A-Za-z]{1,3})?(?:\s+(.*))?$")
_ROFF_HEADINGS = {"TH": 1, "Dt": 1, "SH": 2, "Sh": 2, "SS": 3, "Ss": 3}
_ROFF_TEXT = frozenset(
    {"B", "I", "BI", "BR", "IB", "IR", "RB", "RI", "SM", "SB", "Nm", "Nd", "Fl", "Ar", "Op",
     "Cm", "Pa", "Xr", "Em", "Sy", "Dq", "Sq", "Ql", "Li", "Ev", "Va", "Fn", "Ic", "It",
     "TP", "IP", "Bl", "D1", "Dl", "UR", "MT", "OP"}
)  # fmt: skip
"""Requests whose arguments are text a reader sees (the rest only lay the page out)."""
_ROFF_DEFINE = re.compile(r"^[.']\s*(?:de|de1|am|ig)\b")
"""A macro definition (``.de AP``), or an ignored block (``.ig``): up to a ``..`` line."""
_ROFF_COMMENT = re.compile(r'(?<!\\)\\".*$')
"""A comment: ``\\"`` to the end of the line (not an escaped backslash's quote)."""
_ROFF_BLANK = re.compile(r"^[.']\s*$")
"""What a comment line leaves (``.``): an empty request."""
_ROFF_FONT = re.compile(r"\\f(?:\[[^\]]*\]|\(..|.)")
_ROFF_ESCAPE = re.compile(r"\\(?:\(..|\[[^\]]*\]|[-e&|^%:c!]|\*(?:\(..|\[[^\]]*\]|.)|.)")
_MD_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+\S", re.MULTILINE)
_MD_FENCE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})", re.MULTILINE)
_MD_LINK = re.compile(r"\[[^\]\n]{1,200}(?:\n[^\]\n]{1,200})?\]\([^()\s]+\)")
"""An inline link, its text over two lines at most: ``[server project page](https://…)``."""
MARKDOWN_MIN_LINKS = 2
"""Links that, with a heading, make a text markdown when it fences no code."""
_ODOC_HEADING = re.compile(r"^\s*\{([0-5])(?::[\w-]+)?\s+(.*?)\}?\s*$")
_ODOC_OPEN = re.compile(r"^\s*\{(?:\[|(v)|@([\w-]+)(?:\s[^\[\]]*)?\[)(?:\s|$)")
"""A code block's opening: ``{[``, verbatim ``{v``, or one of a language (odoc 2:
``{@sh[``, ``{@ocaml name=main.ml[``), whose name the fence keeps."""
_ODOC_CLOSE = re.compile(r"\]\}\s*$")
_ODOC_VERBATIM_CLOSE = re.compile(r"(?:^|\s)v\}\s*$")
"""Each block ends at its own closer: ``{dev}`` in a code block closes no verbatim one."""
_ODOC_RAW = re.compile(r"\{%(?:[\w-]+:)?.*?%\}")
"""Raw markup for one output (``{%html: <span class="version">%%VERSION%%</span>%}``):
not text a reader of the page sees in every output, so left out."""
_ODOC_REFERENCE = re.compile(r"\{\{!([^}\s]+)\}([^}]*)\}|\{!([^}\s]+)\}")
_ROFF_NAMED = {"\\-": "-", "\\e": "\\", "\\(em": "—", "\\(en": "–", "\\(aq": "'", "\\(dq": '"'}


def is_roff(text: str) -> bool:
    """Whether ``text`` is a roff document (a man page): a request among its first lines."""
    lines = text[:SNIFF_CHARS].splitlines()[:40]
    return sum(1 for line in lines if _ROFF_REQUEST.match(line)) >= 2


def is_latex(text: str, least: int = 2) -> bool:
    """Whether ``text`` is a LaTeX document: ``\\documentclass``, or ``least`` sectioning
    commands or environments among its lines (a file of macros alone, ``\\newcommand``, or
    GNU's ``texinfo.tex``, is none; a chapter a ``.tex`` file holds has one at least)."""
    head = text[:SNIFF_CHARS]
    return "\\documentclass" in head or len(_LATEX_STRUCTURE.findall(head)) >= least


def is_markdown(text: str) -> bool:
    """Whether ``text`` is written in markdown by its content: an ATX heading (``## Usage``)
    and a fenced code block, or a heading and :data:`MARKDOWN_MIN_LINKS` inline links.
    A heading alone is no sign (a shell script's or a configuration's ``# comment``
    reads as one), nor a link alone (a plain-text file may quote one)."""
    head = text[:SNIFF_CHARS]
    if _MD_HEADING.search(head) is None:
        return False
    fences = _MD_FENCE.findall(head)
    return len(fences) >= 2 or len(_MD_LINK.findall(head)) >= MARKDOWN_MIN_LINKS


def is_word(token: str) -> bool:
    """Whether a whitespace-separated token is a word of prose (punctuation around it
    allowed), not a number, a symbol or code."""
    return _WORD.match(token) is not None


def reads_as_prose(text: str) -> bool:
    """Whether ``text`` is mostly words in sentences (a plain-text document), not a listing
    of code with comments between (a ``go doc`` dump: its signatures are the code's own)."""
    head = text[:SNIFF_CHARS]
    words = len(_PROSE_WORDS.findall(head))
    if words < PROSE_MIN_WORDS or words < PROSE_WORD_SHARE * len(head.split()):
        return False
    lines = [line for line in head.splitlines() if line.strip()]
    code = sum(1 for line in lines if _CODE_LINE.search(line))
    return code < CODE_LINE_SHARE * len(lines) and len(SENTENCE_END.findall(head)) >= 2


def text_kind(text: str, name: str, dialect: str | None = None) -> str | None:
    """``"man"``, ``"vimdoc"``, ``"markdown"`` or ``"text"`` for a documentation file
    named ``name`` whose text is ``text`` (a ``.txt`` file, a name without an extension, a
    man page's name, or any name of dialect ``"text"``: one whose format no table names),
    ``None`` when it is not one. A file named without an extension, or with one no table
    names, may also be a man page or (``"TeX"``) a LaTeX document by its content."""
    lowered = name.lower()
    if dialect == "TeX":  # a document, or a chapter of one; not a file of macros
        return "TeX" if is_latex(text, least=1) else None
    if ROFF_SUFFIX.search(lowered) or dialect == "man":
        return "man" if is_roff(text) else None
    bare = "." not in lowered.rpartition("/")[2]  # README, INSTALL
    if lowered.endswith(TEXT_SUFFIX) or bare or dialect == "text":
        if lowered.endswith(TEXT_SUFFIX):
            if is_vimdoc(text, name):
                return "vimdoc"
            if is_markdown(text):
                return "markdown"  # pandoc's MANUAL.txt, an llms.txt
            return "text" if reads_as_prose(text) else None
        # named without an extension, or with one no table names: the content says what
        if text.startswith("#!"):
            return None  # a script
        if is_roff(text):
            return "man"  # doc/tool.1.in, a man page's template
        if is_latex(text):
            return "TeX"  # OCaml's manual/*.etex
        if is_vimdoc(text, name):
            return "vimdoc"
        if is_markdown(text):
            return "markdown"  # README in markdown, ExDoc's .cheatmd
        return "text" if reads_as_prose(text) else None
    return None


def plain_as_markdown(
    text: str, name: str, dialect: str | None = None, kind: str | None = None
) -> str:
    """``text`` rewritten as markdown when ``name`` is a man page or a ``.txt`` file (or
    of ``dialect`` ``"text"``), line for line; any other text as it is. ``kind``: its
    :func:`text_kind`, when the caller found it already."""
    if name.lower().endswith(ODOC_SUFFIX):
        return odoc_as_markdown(text)
    kind = kind or text_kind(text, name, dialect)
    if kind == "man":
        return roff_as_markdown(text)
    if kind == "vimdoc":
        return vimdoc_as_markdown(text)
    if kind == "text":
        return text_as_markdown(text)
    return text


def text_as_markdown(text: str) -> str:
    """A plain-text document as markdown, line for line, its titles as headings in the two
    ways plain text writes them: underlined (``Basic Installation`` over ``=====``, as GNU's
    INSTALL and OpenSSH's do; each underline character a level, in the order met, as
    reStructuredText reads them) and between runs of one symbol (redis.conf's
    ``##### NETWORK #####``). The underlines are blanked; every other line shows as it is."""
    lines = text.replace("\r\n", "\n").split("\n")
    out = [escape_line(line) for line in lines]
    levels: dict[str, int] = {}
    for index, line in enumerate(lines):
        if banner := _BANNER.match(line):
            out[index] = "## " + escape_line(banner.group("title"))
            continue
        title = line.strip()
        if index + 1 >= len(lines) or not _is_title(title):
            continue
        rule = _UNDERLINE.match(lines[index + 1])
        width = len(lines[index + 1].strip())
        if rule is None or not (max(3, 0.6 * len(title)) <= width <= 2 * len(title) + 4):
            continue
        if index > 0 and lines[index - 1].strip():  # a title stands after a blank line
            continue
        level = levels.setdefault(rule.group(1), min(2 + len(levels), 6))
        out[index], out[index + 1] = "#" * level + " " + escape_line(title), ""
    return "\n".join(out)


def _is_title(line: str) -> bool:
    """Whether a line could be a title: short, with a letter, not a sentence's end or a
    rule itself."""
    return (
        0 < len(line) <= MAX_TITLE
        and any(c.isalpha() for c in line)
        and not line.endswith((".", ",", ";"))
        and _UNDERLINE.match(line) is None
    )


def roff_as_markdown(text: str) -> str:
    """A man page's roff as markdown: headings for its sections, its text without escapes.
    Comments (``.\\"`` lines, and a line's rest after ``\\"``), macro definitions (``.de``
    to ``..``) and ignored blocks (``.ig``) are blanked: no reader of the page sees them."""
    out = []
    defining = False
    for line in text.replace("\r\n", "\n").split("\n"):
        if defining or _ROFF_DEFINE.match(line):
            defining = not defining or line.rstrip() != ".."  # to the ".." line
            out.append("")
            continue
        line = _ROFF_COMMENT.sub("", line)
        if _ROFF_BLANK.match(line):
            out.append("")
            continue
        match = _ROFF_LINE.match(line)
        if match is None:
            out.append(_unescape(line))
            continue
        request, rest = match.group(1) or "", _unescape(match.group(2) or "")
        rest = rest.replace('"', "").strip()
        if request in _ROFF_HEADINGS and rest:
            words = rest.split()[:1] if request in ("TH", "Dt") else [rest]
            out.append("#" * _ROFF_HEADINGS[request] + " " + " ".join(words))
        elif request in _ROFF_TEXT:
            out.append(rest)
        else:
            out.append("")
    return "\n".join(out)


def _unescape(line: str) -> str:
    line = _ROFF_FONT.sub("", line)
    return _ROFF_ESCAPE.sub(lambda m: _ROFF_NAMED.get(m.group(0), ""), line)


def odoc_as_markdown(text: str) -> str:
    """An odoc page as markdown: headings, code fences, references as their names."""
    out: list[str] = []
    closer: re.Pattern[str] | None = None  # inside a code block: what ends it
    for line in text.replace("\r\n", "\n").split("\n"):
        if closer is not None:
            if closer.search(line):
                closer, line = None, "```"
            out.append(line)
        elif (opened := _ODOC_OPEN.match(line)) and not (
            _ODOC_VERBATIM_CLOSE if opened.group(1) else _ODOC_CLOSE
        ).search(line):
            closer = _ODOC_VERBATIM_CLOSE if opened.group(1) else _ODOC_CLOSE
            out.append("```" + (opened.group(2) or ""))
        elif heading := _ODOC_HEADING.match(line := _ODOC_RAW.sub("", line)):
            level, title = int(heading.group(1)), _ODOC_REFERENCE.sub(_reference, heading.group(2))
            out.append("#" * min(level + 1, 6) + " " + title.rstrip("}").strip())
        else:
            out.append(_ODOC_REFERENCE.sub(_reference, line))
    return "\n".join(out)


def _reference(match: re.Match[str]) -> str:
    """``{{!ref}text}`` → its text, ``{!Cmdliner.Arg}`` → ``Arg``."""
    if match.group(1) is not None:
        return match.group(2)
    return str(match.group(3)).rpartition(".")[2].rpartition("-")[2]


def _escape_lines(text: str) -> str:
    """Plain text as markdown that shows it (:func:`escape_line`, line by line)."""
    return "\n".join(escape_line(line) for line in text.replace("\r\n", "\n").split("\n"))
