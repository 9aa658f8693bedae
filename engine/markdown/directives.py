"""Directive kinds and role text, shared by MyST (:mod:`.markup`) and reStructuredText
(:mod:`.rst`).

The kinds are those of docutils and Sphinx (their documented directive names): a directive
whose body is code or data stays code, one that renders no text of its own is blanked, and
every other directive (admonitions, ``versionadded``, autodoc's ``autofunction``, a
project's own) is read as prose: its argument as a line, its body as text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

_ROLE_TARGET = re.compile(r"^(.*?)[ \t]*<([^<>]*)>$", re.S)

LITERAL_DIRECTIVES = frozenset(
    {
        "code", "code-block", "sourcecode", "code-cell", "math", "doctest", "testcode",
        "testoutput", "testsetup", "testcleanup", "jupyter-execute", "ipython", "mermaid",
        "graphviz", "digraph", "graph", "parsed-literal", "csv-table",
    }
)  # fmt: skip
"""Directives whose body is code or data, kept as a fence."""

SILENT_DIRECTIVES = frozenset(
    {
        "toctree", "currentmodule", "module", "py:currentmodule", "py:module", "contents",
        "include", "index", "tableofcontents", "default-role", "default-domain", "meta",
        "image", "rst-class", "cssclass", "class", "target", "autosummary", "bibliography",
        "only", "tabularcolumns", "sectionauthor", "moduleauthor", "codeauthor", "title",
        "literalinclude", "highlight", "raw", "glossary-include", "button-ref", "button-link",
    }
)  # fmt: skip
"""Directives that render no text of their own (or only a link or a file's content)."""

_OBJECT_TYPES = {
    "py": (
        "function", "data", "class", "exception", "method", "classmethod", "staticmethod",
        "attribute", "property", "decorator", "decoratormethod", "type",
    ),
    "c": ("member", "var", "function", "macro", "struct", "union", "enum", "enumerator", "type"),
    "cpp": (
        "class", "struct", "function", "member", "var", "type", "concept", "enum",
        "enum-struct", "enum-class", "enumerator", "union", "alias",
    ),
    "js": ("function", "method", "class", "data", "attribute", "module"),
    "rst": ("directive", "directive:option", "role"),
    "std": ("option", "cmdoption", "envvar", "describe", "object", "program"),
}  # fmt: skip
OBJECT_DIRECTIVES = frozenset(
    {f"{domain}:{kind}" for domain, kinds in _OBJECT_TYPES.items() for kind in kinds}
    | set(_OBJECT_TYPES["py"])  # Sphinx's default domain
    | set(_OBJECT_TYPES["std"])  # the standard domain's, named without it
    | {"confval"}  # sphinx.ext's and most projects' configuration values
)
"""Sphinx's object descriptions: the directives of its domains that each describe one
named thing (a C function, a Python class, a command-line option, an environment
variable), by the names the Sphinx documentation gives them. Sphinx renders each as a
definition headed by its signature; a reader looks it up by its name, so each is a
section of its own, titled by that name (:func:`described_name`). ``class`` alone is
docutils' directive that sets a class attribute when it has no body."""
_POINTER_NAME = re.compile(r"^[^(]*\(\s*\*\s*(\w+)\s*\)\s*\(")
"""A function pointer's name (``int (*uv_malloc_func)(size_t size)``)."""
_SIGNATURE_NAME = re.compile(r"([\w.:~]+)\s*(?:\[[^\]]*\]\s*)?$")


def described_name(argument: str) -> str:
    """The name an object description's signature documents: a function's before its
    parameters (``void uv_close(uv_handle_t* handle, uv_close_cb cb)`` → ``uv_close``), a
    function pointer's (``int (*malloc_fn)(size_t)`` → ``malloc_fn``), a member's or a
    type's last word (``void* uv_handle_t.data`` → ``uv_handle_t.data``);
    an option or a variable as written (``-v, --verbose``)."""
    signature = argument.strip()
    pointer = _POINTER_NAME.search(signature)
    if pointer is not None:
        return pointer[1]
    head = signature.split("(", 1)[0].rstrip() if "(" in signature else signature
    found = _SIGNATURE_NAME.search(head)
    if found is None or ("(" not in signature and " " in signature and "," in signature):
        return signature  # an option's spellings, a describe's free text
    return found[1].strip(".:") or signature


def describes(name: str, argument: str, has_body: bool) -> bool:
    """Whether the directive is an object description (:data:`OBJECT_DIRECTIVES`) of a
    name: docutils' own ``class`` directive, bodiless, sets an attribute instead."""
    if name not in OBJECT_DIRECTIVES or not argument.strip():
        return False
    return has_body or name != "class"


def description_heading(level: int, signature: str) -> tuple[str, str]:
    """An object description's heading at ``level`` (at most 6), titled by the name it
    describes, and the line that shows its signature when it says more than the name
    (``""`` when not)."""
    signature = signature.strip()
    name = described_name(signature)
    shown = f"`{signature.replace('`', '')}`" if signature != name else ""
    return "#" * min(max(level, 1), 6) + " " + name, shown


_ARGUMENT_IS_A_PATH = frozenset({"figure", "image", "include", "literalinclude"})
_VERSION_PHRASES = {
    "versionadded": "Added in version",
    "version-added": "Added in version",
    "versionchanged": "Changed in version",
    "version-changed": "Changed in version",
    "deprecated": "Deprecated since version",
    "version-deprecated": "Deprecated since version",
    "versionremoved": "Removed in version",
    "version-removed": "Removed in version",
}
_CODE_LANGUAGE = frozenset({"code", "code-block", "sourcecode", "code-cell"})


def argument_line(name: str, argument: str) -> str:
    """The line a directive's ``argument`` shows: its title, a version phrase, or nothing."""
    if name in _ARGUMENT_IS_A_PATH:
        return ""
    phrase = _VERSION_PHRASES.get(name)
    return f"{phrase} {argument}" if phrase else argument


def code_language(name: str, argument: str) -> str:
    """The language a code directive names (``code-block:: python``), or ``""``."""
    return argument.split()[0] if argument and name in _CODE_LANGUAGE else ""


def role_text(content: str) -> str:
    """What a role (MyST or reStructuredText) shows for its ``content``.

    ``title <target>`` shows the title; a bare target shows itself, less a leading ``~`` or
    ``!``. A role may span lines: the text keeps as many line breaks as ``content`` had.
    """
    titled = _ROLE_TARGET.match(content)
    if titled is not None and titled[1].strip():
        shown = titled[1].strip()
    else:
        shown = (titled[2] if titled is not None else content).strip().lstrip("~!")
    return shown + "\n" * (content.count("\n") - shown.count("\n"))


_BACKTICKS = re.compile(r"`+")


def replace_roles(text: str, opener: re.Pattern[str]) -> str:
    """``text`` with every role that ``opener`` finds replaced by the text it shows.

    ``opener`` matches a role's name and, as its group 2, the backtick run that opens its
    content; the content ends at the next run of exactly that length. The text is read left
    to right as CommonMark reads code spans: a backtick run that opens no role starts a code
    span, and a role-like ``{name}``` inside a code span (```${HOME}` ``) is code, kept as
    written. A run that never closes stays as written; each run length is looked for once
    (for a role and for a code span alike), so hostile text stays linear.
    """
    pieces: list[str] = []
    done = 0
    unclosed: set[int] = set()
    position = 0
    role = opener.search(text)
    while role is not None:
        if role.start() < position:  # looked for again only once passed, so linear
            role = opener.search(text, position)
            continue
        ticks = _BACKTICKS.search(text, position)
        if ticks is None:
            break
        if ticks.start() < role.start(2):
            # A backtick run before the next role's own: a code span opens here.
            close = _closing_run(text, ticks.end(), len(ticks[0]), unclosed)
            position = ticks.end() if close == -1 else close + len(ticks[0])
            continue
        run = role[2]
        close = _closing_run(text, role.end(), len(run), unclosed)
        if close == -1:
            position = role.end()
            continue
        pieces += [text[done : role.start()], role_text(text[role.end() : close])]
        done = position = close + len(run)
    if not pieces:
        return text
    pieces.append(text[done:])
    return "".join(pieces)


def _closing_run(text: str, start: int, length: int, unclosed: set[int]) -> int:
    """Where the next backtick run of exactly ``length`` begins at or after ``start``, or -1
    (remembered in ``unclosed``, so a length is never looked for twice in vain)."""
    if length in unclosed:
        return -1
    for match in _BACKTICKS.finditer(text, start):
        if len(match[0]) == length:
            return match.start()
    unclosed.add(length)
    return -1


def by_paragraph(lines: list[str], skip: Sequence[bool], rewrite: Callable[[str], str]) -> None:
    """Apply ``rewrite`` to each run of non-blank lines not marked in ``skip`` (roles may
    span lines within a paragraph), in place; ``rewrite`` must keep the number of lines."""
    start = 0
    for index in range(len(lines) + 1):
        if index < len(lines) and lines[index].strip() and not skip[index]:
            continue
        if index > start and "`" in "".join(lines[start:index]):
            rewritten = rewrite("\n".join(lines[start:index])).split("\n")
            if len(rewritten) == index - start:
                lines[start:index] = rewritten
        start = index + 1
