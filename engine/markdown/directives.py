"""Directive kinds and role text, shared by MyST (:mod:`.markup`) and reStructuredText
(:mod:`.rst`).

The kinds are those of docutils and Sphinx (their documented directive names): a directive
whose body is code or data stays code, one that renders no text of its own is blanked, and
every other directive (admonitions, ``versionadded``, autodoc's ``autofunction``, a
project's own) is read as prose: its argument as a line, its body as text.
"""

from __future__ import annotations

import re

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
    """What a role (MyST or reStructuredText) shows for its ``content``."""
    titled = _ROLE_TARGET.match(content)
    if titled is not None and titled[1].strip():
        return titled[1].strip()
    target = titled[2] if titled is not None else content
    return target.strip().lstrip("~!")
