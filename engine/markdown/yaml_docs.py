"""Documentation kept in YAML, read as markdown line for line.

Some projects write their manual as data: jq's ``docs/content/manual/manual.yml`` is a list of
sections, each with a title, a markdown body and examples, from which the site and the man
page are built. Such a file is documentation by its content, never by its name or folder:
:func:`reads_as_docs` asks that most of its words be prose held in its string values. A
configuration (a CI workflow, a compose file, a manifest, a docs site's settings, a schema)
holds keys and short values, and is not documentation.

:func:`yaml_as_markdown` rewrites such a file keeping every line's number (chunks cite the
file's own lines):

* a string value that reads as prose keeps its lines (a block scalar's dedented, so a
  markdown body stays markdown);
* a mapping that holds prose, directly or below, is a section: its first short string
  value is its heading, one level deeper than the section around it;
* any other string value (an example's program, its input) becomes inline code on its
  line; keys, indicators and comments are blanked.

A configuration documented by its comments is documentation too: a Helm chart's
``values.yaml`` says what each setting does in the comments above it, and is the chart's
manual of options. :func:`reads_as_commented` asks for :data:`DOC_MIN_WORDS` words of
prose in its comments (a comment that is a line of configuration commented out does not
count) and :data:`COMMENT_PROSE_SHARE` of its tokens; :func:`commented_as_markdown`
rewrites it line for line: a key that opens a block is a heading of its depth, a
comment is its text, any other line shows as it is, dedented.

The YAML is composed by PyYAML's safe loader (libyaml's where installed), which builds
nodes with their positions and constructs nothing; a node an alias names again is read once.
A file it cannot read is no documentation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.markdown.escaping import escape_line
from engine.markdown.plain import SENTENCE_END, is_word

YAML_SUFFIXES = (".yml", ".yaml")
DOC_MIN_WORDS = 100
"""A YAML file with fewer words of prose is not a document."""
DOC_PROSE_SHARE = 0.5
"""The share of a file's tokens that must be words of its prose values."""
PROSE_VALUE_WORDS = 8
"""A string value of fewer words is a name, a label or data, not prose."""
PROSE_VALUE_SHARE = 0.5
"""The share of a value's tokens that must be words for it to read as prose."""
SCRIPT_LINE_SHARE = 0.3
"""A value with this share of its lines ending as statements and blocks do is a script."""
COMMENT_PROSE_SHARE = 0.2
"""The share of a commented configuration's tokens that must be words of its prose
comments (a workflow with a comment or two is configuration)."""
COMMENT_PROSE_WORDS = 4
"""A comment of fewer words is a label (``# Service options``), not an explanation."""
MAX_DEPTH = 64
"""Nesting deeper than this is not walked (hostile input)."""
_SCALAR_TAG = "tag:yaml.org,2002:str"
_SHORT_FIELD = re.compile(r"^\s*(?:-\s+)?(?:[^\s:#]+:(?:\s+\S+){0,3}\s*|\S+\s*|#.*)?$")
"""A line that holds no prose: a key with at most three words after it, a list item or
value of one word, a comment, a blank. Prose values are words beyond these, so a file
with fewer such words than a document needs is not parsed at all."""


@dataclass(frozen=True, slots=True)
class _Value:
    """A string value: where it starts and ends (0-based lines), whether it is a block
    scalar, its text, and whether that reads as prose (:func:`_reads_as_prose`, decided
    once when the value is read)."""

    first: int
    last: int
    block: bool
    text: str
    prose: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "prose", _reads_as_prose(self.text))


def _reads_as_prose(text: str) -> bool:
    """Words in sentences: enough of them, most of its tokens, a sentence's end, and not a
    script's lines (ending in ``;``, ``{`` or ``}``)."""
    tokens = text.split()
    if len(tokens) < PROSE_VALUE_WORDS:  # a name or a label: too few words to count
        return False
    words = sum(1 for token in tokens if is_word(token))
    if words < PROSE_VALUE_WORDS or words < PROSE_VALUE_SHARE * len(tokens):
        return False
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    code = sum(1 for line in lines if line.endswith((";", "{", "}")))
    return code < SCRIPT_LINE_SHARE * len(lines) and SENTENCE_END.search(text) is not None


@dataclass(slots=True)
class _Section:
    """A mapping's string values in order, and the sections nested in it."""

    values: list[_Value]
    children: list[_Section]

    def holds_prose(self) -> bool:
        return any(v.prose for v in self.values) or any(c.holds_prose() for c in self.children)


def reads_as_docs(text: str) -> bool:
    """Whether the YAML ``text`` is documentation: at least :data:`DOC_MIN_WORDS` words of
    prose in its string values, and at least :data:`DOC_PROSE_SHARE` of its tokens."""
    tokens = len(text.split())
    if tokens < DOC_MIN_WORDS:
        return False
    outside = sum(len(line.split()) for line in text.splitlines() if not _SHORT_FIELD.match(line))
    if outside < DOC_MIN_WORDS or outside < DOC_PROSE_SHARE * tokens:
        return False  # mostly keys with short values: configuration, not read further
    root = _compose(text)
    if root is None:
        return False
    prose = sum(len(v.text.split()) for v in _values(root) if v.prose)
    return prose >= DOC_MIN_WORDS and prose >= DOC_PROSE_SHARE * tokens


_COMMENT = re.compile(r"^\s*#+\s?(.*)$")
_TRAILING_COMMENT = re.compile(r"""^[^#'"]*?\s#+\s?(.*)$""")
"""A comment after a value on its line (none is looked for after a quote)."""
_BLOCK_KEY = re.compile(r"""^(?:-\s+)?("[^"]+"|'[^']+'|[^\s#'"{\[][^#]*?):\s*(?:#.*)?$""")
"""A key whose value is the block below it (``prometheusSpec:``)."""


def _comment_text(line: str) -> str | None:
    """The text of the comment ``line`` holds (whole or after a value), or None."""
    found = _COMMENT.match(line) or _TRAILING_COMMENT.match(line)
    return found[1].strip() if found is not None else None


def _prose_comment_words(lines: list[str]) -> int:
    """Words in the file's comments that explain (runs of comment lines read together),
    not lines of configuration commented out (``# tag: 1.0``) nor labels."""
    words, run = 0, []
    for line in [*lines, ""]:
        text = _comment_text(line)
        if text is not None and not _SHORT_FIELD.match(text):
            run.append(text)
            continue
        tokens = " ".join(run).split()
        counted = sum(1 for token in tokens if is_word(token))
        if counted >= COMMENT_PROSE_WORDS and counted >= PROSE_VALUE_SHARE * len(tokens):
            words += counted
        run = []
    return words


def reads_as_commented(text: str) -> bool:
    """Whether the YAML ``text`` is a configuration its comments document (module
    docstring): enough words of explaining comments, a share of its tokens, and YAML
    that PyYAML reads."""
    tokens = len(text.split())
    if tokens < DOC_MIN_WORDS or "#" not in text:
        return False
    prose = _prose_comment_words(text.splitlines())
    if prose < DOC_MIN_WORDS or prose < COMMENT_PROSE_SHARE * tokens:
        return False
    return _compose(text) is not None


def commented_as_markdown(text: str) -> str:
    """A commented configuration rewritten as markdown, line for line: each key opening a
    block a heading one level below the key it is in, each comment its text, every other
    line as it is, dedented."""
    out: list[str] = []
    open_keys: list[int] = []  # the indentation of each key a heading was made for
    above = 0  # where the comments right above this line start
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        comment = _COMMENT.match(line)
        if comment is not None:
            out.append(escape_line(comment[1].strip()))
            continue
        if not stripped or stripped in ("---", "..."):
            out.append("")
            above = len(out)
            continue
        while open_keys and open_keys[-1] >= indent:
            open_keys.pop()
        key = _BLOCK_KEY.match(stripped)
        if key is not None and len(open_keys) < 6:
            open_keys.append(indent)
            # The comments above a key say what it is: they open its section.
            out.append("#" * len(open_keys) + " " + key[1].strip("\"'"))
            out[above:] = out[-1:] + out[above:-1]
        else:
            out.append(escape_line(stripped))
        above = len(out)
    return "\n".join(out)


def documented_by(text: str) -> Literal["values", "comments"] | None:
    """How the YAML ``text`` is documentation, or None when it is not: by the prose of
    its string values (:func:`reads_as_docs`), else by its comments
    (:func:`reads_as_commented`). The one decision the index and the reader share."""
    if reads_as_docs(text):
        return "values"
    return "comments" if reads_as_commented(text) else None


def yaml_as_markdown(text: str) -> str:
    """``text`` (YAML documentation) rewritten as markdown, line for line (module
    docstring); a file that cannot be read is returned blank, its lines kept."""
    if documented_by(text) == "comments":
        return commented_as_markdown(text)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out = [""] * len(lines)
    root = _compose(text)
    if root is not None:
        _render(root, 1, lines, out)
    return "\n".join(out)


def _render(section: _Section, level: int, lines: list[str], out: list[str]) -> None:
    """Write ``section`` (a heading at ``level`` when it holds prose) and what it holds."""
    stack = [(section, level)]
    while stack:
        current, depth = stack.pop()
        titled = current.holds_prose()
        title = next((v for v in current.values if not v.prose and "\n" not in v.text), None)
        for value in current.values:
            if value.first >= len(out):  # a line break only YAML counts (U+2028…)
                continue
            if titled and value is title:
                out[value.first] = "#" * min(depth, 6) + " " + " ".join(value.text.split())
            elif value.prose:
                _write_prose(value, lines, out)
            elif value.text.strip():
                _write_code(value, out)
        inner = depth + 1 if titled and title is not None else depth
        stack.extend((child, inner) for child in reversed(current.children))


def _write_prose(value: _Value, lines: list[str], out: list[str]) -> None:
    """A prose value's lines: a block scalar's own, dedented; any other's text on its
    first line."""
    if not value.block:
        out[value.first] = " ".join(value.text.split())
        return
    body = range(value.first + 1, min(value.last + 1, len(lines)))
    indent = min((len(lines[i]) - len(lines[i].lstrip()) for i in body if lines[i].strip()),
                 default=0)  # fmt: skip
    for i in body:
        out[i] = lines[i][indent:].rstrip()


def _write_code(value: _Value, out: list[str]) -> None:
    """A short value as inline code on its first line, beside what that line holds."""
    shown = " ".join(value.text.split())
    fence = "``" if "`" in shown else "`"
    code = f"{fence} {shown} {fence}" if fence == "``" else f"`{shown}`"
    out[value.first] = f"{out[value.first]} {code}".strip()


def _values(section: _Section) -> Iterator[_Value]:
    stack = [section]
    while stack:
        current = stack.pop()
        yield from current.values
        stack.extend(current.children)


def _compose(text: str) -> _Section | None:
    """The file's documents as one section of nested sections, or ``None`` when PyYAML
    cannot read it."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        documents = list(yaml.compose_all(text, Loader=loader))
    except (yaml.YAMLError, RecursionError, ValueError):
        return None
    root = _Section([], [])
    for node in documents:
        if node is not None:
            _gather(node, root)
    return root


def _gather(node: Any, into: _Section) -> None:
    """Add ``node``'s string values and sections to ``into``, in document order."""
    import yaml

    work: list[tuple[Any, _Section, int]] = [(node, into, 0)]
    seen: set[int] = set()
    while work:
        current, section, depth = work.pop()
        if depth > MAX_DEPTH or id(current) in seen:
            continue  # an alias is the node it names, read once (no billion laughs)
        seen.add(id(current))
        if isinstance(current, yaml.ScalarNode):
            if current.tag == _SCALAR_TAG:
                block = current.style in ("|", ">")
                last = current.end_mark.line - (1 if current.end_mark.column == 0 else 0)
                section.values.append(
                    _Value(current.start_mark.line, max(last, current.start_mark.line),
                           block, current.value)
                )  # fmt: skip
        elif isinstance(current, yaml.MappingNode):
            child = _Section([], [])
            section.children.append(child)
            work.extend((value, child, depth + 1) for _, value in reversed(current.value))
        elif isinstance(current, yaml.SequenceNode):
            work.extend((item, section, depth + 1) for item in reversed(current.value))
