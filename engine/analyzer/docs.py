"""Outlines of documentation files: title and headings of Markdown and reStructuredText."""

from __future__ import annotations

import re

from engine.analyzer.model import DocOutline
from engine.core.models import MAX_CONTENT_LENGTH
from engine.markdown.blocks import document_headings

# Every pattern here is anchored and made of single repeated classes, so it runs in time
# linear in the line; the parts that once backtracked (a heading's closing ``#``s, links,
# tags, anchors) are scanned by hand below.
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_RST_UNDERLINE = re.compile(r"([=\-~^\"'`#*+:.])\1{2,}\s*")
_ADOC_TITLE = re.compile(r"(={1,6})[ \t]+(\S.*?)(?:[ \t]+\1)?")
_ADOC_BLOCK = re.compile(r"-{4,}|\.{4,}|/{4,}|\+{4,}")
"""AsciiDoc's delimited blocks whose lines are no titles (see engine/markdown/asciidoc.py)."""
MAX_HEADINGS = 200
MAX_HEADING_CHARS = 120
RELEASE_LEAD_CHARS = MAX_CONTENT_LENGTH - 1_000
"""How much of release notes their summary entry holds (the newest releases): an entry's
limit less room for the summary's own lines."""

DOC_EXTENSIONS = (".md", ".mdx", ".markdown", ".rst", ".adoc", ".asciidoc")


def is_doc(file_name: str) -> bool:
    """Whether ``file_name`` is a documentation file the analyzer outlines."""
    return file_name.lower().endswith(DOC_EXTENSIONS)


def lead(text: str, limit: int) -> str:
    """The opening of ``text`` in at most ``limit`` characters, cut after its last whole
    paragraph that fits (at a line end when the first paragraph alone is longer), a heading
    left with nothing under it dropped: what release notes say of their newest releases,
    which come first (Keep a Changelog: "the latest version comes first"; GNU's NEWS,
    towncrier's and reno's output do the same)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if len(text) <= limit:
        return text
    cut = text.rfind("\n\n", 0, limit + 2)  # a paragraph ends where a blank line begins
    if cut <= 0:
        cut = text.rfind("\n", 0, limit + 1)
        return text[:cut].rstrip() if cut > 0 else text[:limit]
    paragraphs = text[:cut].rstrip().split("\n\n")
    while len(paragraphs) > 1 and _heading_only(paragraphs[-1]):
        paragraphs.pop()
    return "\n\n".join(paragraphs)


def _heading_only(paragraph: str) -> bool:
    """Whether a paragraph is nothing but a heading: markdown's ``#`` line, or a line
    under (and over) a rule of one punctuation character (setext, reStructuredText)."""
    lines = paragraph.strip().split("\n")
    if len(lines) == 1:
        return lines[0].startswith("#")
    return len(lines) <= 3 and _RST_UNDERLINE.fullmatch(lines[-1]) is not None


def outline(rel: str, text: str, *, lead_chars: int = 0) -> DocOutline:
    """Title and headings of the document ``rel`` with content ``text``, and its opening
    ``lead_chars`` characters (:func:`lead`) when asked for.

    The title is the first level-1 heading, else the front-matter ``title``, else the first
    heading, else the file name.
    """
    opening = lead(text, lead_chars) if lead_chars > 0 else ""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    front_title = ""
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end != -1:
            front_title = _front_title(text[4:end])
            text = "\n" * text[: end + 4].count("\n") + text[end + 4 :]
    lowered = rel.lower()
    if lowered.endswith(".rst"):
        found = _rst_headings(text)
    elif lowered.endswith((".adoc", ".asciidoc")):
        found = _adoc_headings(text)
    else:
        found = _md_headings(text)
    title = ""
    for i, (level, heading) in enumerate(found):
        if level == 1:
            title = heading
            del found[i]
            break
    if not title:
        title = front_title
    if not title and found:
        title = found.pop(0)[1]
    if not title:
        title = rel.rpartition("/")[2].rsplit(".", 1)[0]
    found = found[:MAX_HEADINGS]
    return DocOutline(rel, title, tuple(h for _, h in found), tuple(lv for lv, _ in found), opening)


def _md_headings(text: str) -> list[tuple[int, str]]:
    """Markdown's headings as the chunker reads them (CommonMark with GFM tables:
    :func:`engine.markdown.blocks.document_headings`), each made plain and short."""
    found = [(level, _clean(heading)) for level, heading in document_headings(text)]
    return [(level, heading) for level, heading in found if heading]


def _adoc_headings(text: str) -> list[tuple[int, str]]:
    """AsciiDoc section titles (``= Title``, ``== Section``), outside listing, literal,
    comment and passthrough blocks; a level per ``=``."""
    found: list[tuple[int, str]] = []
    block = ""
    for line in text.split("\n"):
        stripped = line.rstrip()
        if block:
            block = "" if stripped == block else block
        elif _ADOC_BLOCK.fullmatch(stripped):
            block = stripped
        elif (m := _ADOC_TITLE.fullmatch(stripped)) and (heading := _clean(m.group(2))):
            found.append((len(m.group(1)), heading))
    return found


def _rst_headings(text: str) -> list[tuple[int, str]]:
    """Sections underlined (optionally overlined); levels follow the order of adornments."""
    lines = text.split("\n")
    styles: list[str] = []
    found: list[tuple[int, str]] = []
    for i in range(1, len(lines)):
        m = _RST_UNDERLINE.fullmatch(lines[i])
        title = lines[i - 1].strip()
        if not m or not title or _RST_UNDERLINE.fullmatch(lines[i - 1]):
            continue
        if len(lines[i].rstrip()) < len(title):
            continue
        overlined = i >= 2 and lines[i - 2].rstrip() == lines[i].rstrip()
        style = ("^" if overlined else "") + m.group(1)
        if style not in styles:
            styles.append(style)
        found.append((min(styles.index(style) + 1, 6), _clean(title)))
    return found


def _front_title(front_matter: str) -> str:
    """The ``title:`` of a front matter block, quotes removed; empty when there is none."""
    for line in front_matter.split("\n"):
        if line.startswith("title:"):
            value = line[len("title:") :].strip()
            value = value[1:] if value[:1] in ("'", '"') else value
            value = value[:-1] if value[-1:] in ("'", '"') else value
            return _clean(value.strip())
    return ""


def _atx(line: str) -> tuple[int, str] | None:
    """``(level, text)`` of an ATX heading line (``## Title ##``), else ``None``."""
    body = line.rstrip(" \t")
    stripped = body.lstrip(" ")
    if len(body) - len(stripped) > 3:
        return None
    level = len(stripped) - len(stripped.lstrip("#"))
    rest = stripped[level:]
    if not 1 <= level <= 6 or (rest and rest[0] not in " \t"):
        return None
    closing = rest.rstrip("#")
    if not closing or closing[-1] in " \t":  # a closing run of #s must follow a space
        rest = closing
    return level, rest.strip(" \t")


def _clean(text: str) -> str:
    text = _strip_anchor(text)
    text = _replace_links(text)
    text = _strip_tags(text)
    text = text.replace("`", "").replace("**", "").replace("__", "")
    text = " ".join(text.split())
    if len(text) > MAX_HEADING_CHARS:
        text = text[: MAX_HEADING_CHARS - 3].rstrip() + "..."
    return text


def _strip_anchor(text: str) -> str:
    """``Title {#anchor}`` → ``Title``."""
    trimmed = text.rstrip()
    start = trimmed.rfind("{#")
    if not trimmed.endswith("}") or start == -1 or "}" in trimmed[start:-1]:
        return text
    return trimmed[:start].rstrip()


def _replace_links(text: str) -> str:
    """``[label](target)`` and ``![alt](src)`` → their label, scanning left to right once."""
    pieces: list[str] = []
    done = close = paren = -1
    index = text.find("[")
    while index != -1:
        if close < index:
            close = text.find("]", index)
        if close == -1:
            break  # no ``]`` after this point: no more links
        if text.startswith("(", close + 1):
            if paren < close + 2:
                paren = text.find(")", close + 2)
            if paren == -1:
                break
            start = index - 1 if index and text[index - 1] == "!" else index
            pieces += [text[done + 1 : start], text[index + 1 : close]]
            done = paren
            index = text.find("[", paren + 1)
            continue
        index = text.find("[", index + 1)
    pieces.append(text[done + 1 :])
    return "".join(pieces)


def _strip_tags(text: str) -> str:
    """Remove ``<tag …>`` spans (at least one character between the brackets)."""
    pieces: list[str] = []
    done = 0
    close = -1
    index = text.find("<")
    while index != -1:
        if close <= index:
            close = text.find(">", index + 1)
        if close == -1:
            break
        if close == index + 1:  # ``<>`` is not a tag
            index = text.find("<", index + 1)
            continue
        pieces.append(text[done:index])
        done = close + 1
        index = text.find("<", done)
    pieces.append(text[done:])
    return "".join(pieces)
