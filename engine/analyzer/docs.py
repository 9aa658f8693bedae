"""Outlines of documentation files: title and headings of Markdown and reStructuredText."""

from __future__ import annotations

import re

from engine.analyzer.model import DocOutline

_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_ANCHOR = re.compile(r"\s*\{#[^}]*\}\s*$")
_RST_UNDERLINE = re.compile(r"([=\-~^\"'`#*+:.])\1{2,}\s*")
_FRONT_TITLE = re.compile(r"^title:\s*[\"']?(.*?)[\"']?\s*$", re.MULTILINE)
MAX_HEADINGS = 200
MAX_HEADING_CHARS = 120

DOC_EXTENSIONS = (".md", ".mdx", ".markdown", ".rst")


def is_doc(file_name: str) -> bool:
    """Whether ``file_name`` is a documentation file the analyzer outlines."""
    return file_name.lower().endswith(DOC_EXTENSIONS)


def outline(rel: str, text: str) -> DocOutline:
    """Title and headings of the document ``rel`` with content ``text``.

    The title is the first level-1 heading, else the front-matter ``title``, else the first
    heading, else the file name.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    front_title = ""
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end != -1:
            if m := _FRONT_TITLE.search(text[4:end]):
                front_title = _clean(m.group(1))
            text = "\n" * text[: end + 4].count("\n") + text[end + 4 :]
    found = _rst_headings(text) if rel.lower().endswith(".rst") else _md_headings(text)
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
    return DocOutline(rel, title, tuple(h for _, h in found), tuple(lv for lv, _ in found))


def _md_headings(text: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    fence = ""
    previous = ""
    for line in text.split("\n"):
        if m := _FENCE.match(line):
            marker = m.group(1)
            if not fence:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = ""
            previous = ""
            continue
        if fence:
            continue
        if (m := _ATX.fullmatch(line)) and (heading := _clean(m.group(2) or "")):
            found.append((len(m.group(1)), heading))
            previous = ""
            continue
        if (
            (m := _SETEXT.fullmatch(line))
            and previous.strip()
            and not previous.startswith((" " * 4, "\t", "-", "*", ">", "|"))
            and (heading := _clean(previous))
        ):
            found.append((1 if m.group(1)[0] == "=" else 2, heading))
            previous = ""
            continue
        previous = line
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


def _clean(text: str) -> str:
    text = _ANCHOR.sub("", text)
    text = _LINK.sub(r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.replace("`", "").replace("**", "").replace("__", "")
    text = " ".join(text.split())
    if len(text) > MAX_HEADING_CHARS:
        text = text[: MAX_HEADING_CHARS - 3].rstrip() + "..."
    return text
