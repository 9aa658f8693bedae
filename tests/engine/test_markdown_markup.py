"""Markdown beyond ``#`` headings (issue 34): HTML headings, MyST/Sphinx markup and
reStructuredText pages are chunked by their sections, as a reader of the rendered page sees
them; no chunk is a label, and none has under 60 characters of words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.models import Source
from engine.markdown.chunking import MIN_PROSE_CHARS, Chunk, chunk_markdown
from engine.markdown.markup import strip_markup
from engine.markdown.rst import rst_as_markdown
from engine.services.indexing import Indexer
from engine.services.memory import Memory

WORD = re.compile(r"\w+")
# What a label, role, directive or attribute line looks like, written independently of
# engine/markdown/markup.py.
MARKUP = re.compile(r"^\s*\(.*\)=\s*$|\{[\w:.+-]+\}`|^\s*[`~:]{3,}\s*\{|^\s*\{[.#]|^\s*\.\. ", re.M)

ANSWER = "Pass the --hidden flag, or set hidden = true in the configuration file of the project."

FAQ = f"""# FAQ

Answers to the questions people ask most often about the search tool.

<h3 id="hidden">How do I <code>search</code> hidden files?</h3>

{ANSWER}
{ANSWER}

<h3>Why is my config ignored?</h3>
The configuration file is read from the project root only; a file in a subfolder is not.

<a name="speed"></a>
<h3 align="left">
  Is it &amp; fast?
</h3>

It searches a large repository in well under a second on an ordinary laptop computer.

<h1 align="center"><img src="logo.png" alt=""></h1>
"""


def prose(chunk: Chunk) -> int:
    """Characters of words in a chunk's own text, heading lines left out."""
    lines = [line for line in chunk.own_text.split("\n") if not line.lstrip().startswith("#")]
    return len(" ".join(WORD.findall(" ".join(lines))))


def line_of(text: str, needle: str) -> int:
    """1-based line of the first line of ``text`` that contains ``needle``."""
    return next(i for i, line in enumerate(text.split("\n"), 1) if needle in line)


def test_html_headings_are_sections_titled_by_their_text() -> None:
    chunks = chunk_markdown(FAQ, 2000, 15, MIN_PROSE_CHARS)

    assert [c.title for c in chunks] == [
        "FAQ",
        "FAQ > How do I search hidden files?",
        "FAQ > Why is my config ignored?",
        "FAQ > Is it & fast?",
    ]
    assert [c.line_start for c in chunks] == [
        1,
        line_of(FAQ, '<h3 id="hidden">'),
        line_of(FAQ, "<h3>Why"),
        line_of(FAQ, '<h3 align="left">'),
    ]
    # Each answer is whole in its question's chunk, which opens with the question.
    assert chunks[1].own_text.startswith("### How do I search hidden files?\n\n" + ANSWER)
    assert chunks[1].own_text.count(ANSWER) == 2
    assert chunks[3].own_text.startswith("### Is it & fast?\n\nIt searches")
    assert all(prose(c) >= 60 for c in chunks)


def test_an_html_heading_inside_a_paragraph_or_without_text_is_no_section() -> None:
    text = (
        "# Title\n\nSome text that mentions <h2>inline</h2> markup in the middle of a sentence.\n"
        '\n<h2><img src="x.png"></h2>\n\nMore words under the title, enough of them to count.\n'
    )

    assert [c.title for c in chunk_markdown(text, min_prose=0)] == ["Title"]


MYST = """(virtualenv-heading)=

# Virtualenv

{.hide-header}
## Why virtualenv?

Virtualenv keeps the dependencies of each project apart; see {ref}`the
quickstart <quickstart>` and {func}`~click.echo` for the first steps, or {doc}`api`.

```{note}
:class: tip

A note body with words about environments: one per project, activated in the shell.
```

## API {#api}

```{currentmodule} click
```

```{autofunction} echo
```

```{eval-rst}
.. autoclass:: Context
   :members:

   The context holds the state of one invocation, see :ref:`the guide <ctx>`.
```

::::{versionadded} 8.0
The color parameter decides whether ANSI styles are kept when the output is no terminal.

:::{warning}
Nested admonitions are unwrapped in turn, and their words stay in the chunk they are in.
:::
::::

```{code-block} python
:caption: hello.py

import click
```

% A comment for the authors, never shown on the page.

## Short

See {doc}`api`.

```{toctree}
:maxdepth: 2

quickstart
api
```

## Last words

The last section has enough words of its own to stand alone as a chunk of this page.
"""


def test_myst_labels_roles_and_directives_are_read_as_rendered() -> None:
    chunks = chunk_markdown(MYST, 2000, 15, MIN_PROSE_CHARS)
    text = "\n".join(c.content for c in chunks)

    assert [c.title for c in chunks] == [
        "Virtualenv > Why virtualenv?",
        "Virtualenv > API",
        "Virtualenv > Last words",
    ]
    # The first section under the H1 is cited at its own heading, not at line 1.
    assert chunks[0].line_start == line_of(MYST, "## Why virtualenv?")
    assert chunks[1].line_start == line_of(MYST, "## API")
    # The short "## Short" section (a link and a toctree) joined the one after it.
    assert chunks[2].line_start == line_of(MYST, "## Short")
    assert "See api." in chunks[2].own_text
    assert not MARKUP.search(text), MARKUP.search(text)
    for gone in ["virtualenv-heading", "hide-header", ":class:", "currentmodule", "maxdepth",
                 "for the authors", "{#api}", ":members:", "eval-rst"]:  # fmt: skip
        assert gone not in text, gone
    assert "see the\nquickstart and click.echo for the first steps" in chunks[0].own_text
    # An admonition's body is prose, not a code block; a code directive stays code.
    assert "\nA note body with words about environments" in chunks[0].own_text
    assert "```" not in chunks[0].own_text
    assert "echo\n" in chunks[1].own_text  # autofunction keeps the name it documents
    # An eval-rst body is reStructuredText, read as such.
    assert "Context\n\nThe context holds the state of one invocation, see the guide." in text
    assert "Added in version 8.0\nThe color parameter" in chunks[1].own_text
    assert "\nNested admonitions are unwrapped in turn" in chunks[1].own_text
    assert "```python\nimport click\n```" in chunks[1].own_text
    assert all(prose(c) >= 60 for c in chunks)


def test_a_page_that_is_only_labels_and_directives_leaves_no_label_chunk() -> None:
    text = "(top)=\n\n```{currentmodule} click\n```\n\n{.hide-header}\n# API\n\n" + (
        "The API reference lists every public function and class of the package.\n"
    )

    chunks = chunk_markdown(text, min_prose=MIN_PROSE_CHARS)

    assert [(c.title, c.line_start) for c in chunks] == [("API", 7)]
    assert chunks[0].own_text.startswith("# API\n\nThe API reference")


def test_plain_markdown_is_left_as_written() -> None:
    text = "# Notes\n\n% of users: 40\n\n+++\n\n(a note in parentheses)\n\n<div>x</div>\n"

    assert strip_markup(text.split("\n")).lines == text.split("\n")


def test_a_role_that_never_closes_stays_as_written() -> None:
    [rewritten] = strip_markup(["{ref}``open and {func}`done` end"]).lines

    assert rewritten == "{ref}``open and done end"


RST = """:orphan:

.. _install:

============
Installation
============

Requests installs from PyPI; :ref:`the quickstart <quickstart>` shows a first call with
:class:`~requests.Session`, and `the
source <https://github.com/psf/requests>`_ is on GitHub.

.. note::

   The note's body is prose: pin the version your project was tested with, and upgrade
   on purpose.

Pip
---

To install Requests, simply run this command in your terminal of choice::

    $ python -m pip install requests

.. code-block:: python
   :caption: check.py

   import requests

.. toctree::
   :maxdepth: 2

   user/install

.. versionadded:: 2.0
   Wheels are published for every release on the Python Package Index.

.. include:: /etc/passwd

Get the Source Code
-------------------

Requests is actively developed on GitHub, where the code is always available to clone
or to download as a tarball.

.. This is a comment for the authors.
   It spans two lines.
"""


def test_rst_titles_are_sections_and_its_markup_is_read_as_rendered() -> None:
    converted = rst_as_markdown(RST)
    chunks = chunk_markdown(converted, 2000, 15, MIN_PROSE_CHARS)
    text = "\n".join(c.content for c in chunks)

    assert converted.count("\n") == RST.count("\n")  # line for line
    assert [(c.title, c.line_start) for c in chunks] == [
        ("Installation", line_of(RST, "Installation")),
        ("Installation > Pip", line_of(RST, "Pip")),
        ("Installation > Get the Source Code", line_of(RST, "Get the Source Code")),
    ]
    assert chunks[0].own_text.startswith("# Installation\n\nRequests installs from PyPI; the")
    # Roles and references may span lines; their text keeps the line break.
    assert "the quickstart shows a first call with\nrequests.Session, and the\nsource is" in text
    assert "\nThe note's body is prose" in chunks[0].own_text
    assert "terminal of choice:\n\n    $ python -m pip install requests" in chunks[1].own_text
    assert "    import requests" in chunks[1].own_text
    assert "Added in version 2.0\nWheels are published" in chunks[1].own_text
    for gone in [":orphan:", "_install", "toctree", "maxdepth", "user/install", ":class:",
                 ":ref:", "`_", "caption", "for the authors", "include", "root:"]:  # fmt: skip
        assert gone not in text, gone
    assert not MARKUP.search(text)
    assert all(prose(c) >= 60 for c in chunks)


def test_rst_that_docutils_cannot_parse_is_still_chunked(monkeypatch: pytest.MonkeyPatch) -> None:
    from docutils.parsers.rst import Parser

    def broken(*args: object, **kwargs: object) -> None:
        raise RecursionError("too deep")

    monkeypatch.setattr(Parser, "parse", broken)

    converted = rst_as_markdown(RST)

    assert converted.count("\n") == RST.count("\n")
    assert "# Installation" not in converted  # no titles without the parser
    assert "the quickstart" in converted and ".. note::" not in converted


API_RST = """\
Handle
======

API
---

.. c:function:: void uv_close(uv_handle_t* handle, uv_close_cb close_cb)

    Request handle to be closed. This MUST be called on each handle before
    memory is released.

.. c:type:: void (*uv_close_cb)(uv_handle_t* handle)

    Type definition for the callback passed to :c:func:`uv_close`.

.. class:: Session(base_url=None)

   A session keeps cookies between requests.

   .. method:: get(url, **kwargs)

      Send a GET request.

.. class:: special

A paragraph with a CSS class, which is docutils' class directive.

.. envvar:: UV_THREADPOOL_SIZE

   The size of the thread pool.
"""


def test_rst_object_descriptions_are_sections_titled_by_the_name_they_describe() -> None:
    converted = rst_as_markdown(API_RST)
    chunks = chunk_markdown(converted, 300, 15, 0)

    assert converted.count("\n") == API_RST.count("\n")
    assert [(c.title, c.line_start) for c in chunks] == [
        ("Handle > API > uv_close", line_of(API_RST, "c:function")),
        ("Handle > API > uv_close_cb", line_of(API_RST, "c:type")),
        ("Handle > API > Session", line_of(API_RST, "Session(")),
        ("Handle > API > Session > get", line_of(API_RST, "method::")),
        ("Handle > API > UV_THREADPOOL_SIZE", line_of(API_RST, "envvar::")),
    ]
    # The signature, when it says more than the name, is the section's first line.
    assert chunks[0].own_text.startswith(
        "### uv_close\n`void uv_close(uv_handle_t* handle, uv_close_cb close_cb)`\nRequest"
    )
    assert "callback passed to uv_close." in chunks[1].own_text
    assert "### Session\n`Session(base_url=None)`\nA session keeps" in chunks[2].own_text
    # A bodiless ``class`` sets an attribute: no section, and its paragraph stays.
    assert "special" not in converted
    assert "A paragraph with a CSS class" in converted


MYST_API = """\
# API

Intro text.

```{py:function} send(url, data=None)
:noindex:

Send data to a URL.
```

````{py:class} Session(base_url=None)

A session.

```{py:method} get(url)

Send a GET request.
```
````
"""


def test_myst_object_descriptions_are_sections_as_in_rst() -> None:
    lines = strip_markup(MYST_API.split("\n")).lines
    chunks = chunk_markdown("\n".join(lines), 300, 15, 0)

    assert len(lines) == MYST_API.count("\n") + 1
    assert [(c.title, c.line_start) for c in chunks] == [
        ("API", 1),
        ("API > send", line_of(MYST_API, "{py:function}")),
        ("API > Session", line_of(MYST_API, "{py:class}")),
        ("API > Session > get", line_of(MYST_API, "{py:method}")),
    ]
    assert "## send\n`send(url, data=None)`\n\nSend data" in chunks[1].own_text
    assert ":noindex:" not in "\n".join(lines)


RST_PIECES = [
    "..", ".. ", ".. _x:", ".. note::", ".. code-block:: py", ".. toctree::", ".. |s| image:: x",
    ".. [1] foot", "   ", "      ", "::", "Title", "=====", "-----", "~~~", ":ref:`x <y>`",
    ":func:`", "`x <y>`_", "`x`__", "|s|", ":orphan:", ":maxdepth: 2", "\n", "\n\n", "word",
    "* item", "#. one", "+---+\n| a |\n+---+", "\t", "\r\n", "é", "\x00", ">>> x",
]  # fmt: skip


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(RST_PIECES), max_size=80).map("".join))
def test_any_rst_text_converts_line_for_line_and_chunks(text: str) -> None:
    converted = rst_as_markdown(text)

    assert converted.count("\n") == text.replace("\r\n", "\n").replace("\r", "\n").count("\n")
    for chunk in chunk_markdown(converted, 300, 15):
        assert chunk.own_text.strip()
        assert 1 <= chunk.line_start <= chunk.line_end <= converted.count("\n") + 1


def test_rst_docs_are_indexed_as_sources(tmp_path: Path, memory: Memory) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "install.rst").write_text(RST, encoding="utf-8")
    (tmp_path / "README.rst").write_text(
        "Project\n=======\n\nA project whose readme is reStructuredText, as Sphinx projects'\n"
        "often are, and still found by a search for its words.\n",
        encoding="utf-8",
    )

    report = Indexer(memory).run()

    assert report.errors == []
    hits = memory.search("tarball clone GitHub", mode="keyword").results
    assert [(h.entry.file_path, h.entry.section_title, h.entry.line_start) for h in hits][:1] == [
        ("docs/install.rst", "Installation > Get the Source Code", line_of(RST, "Get the Source"))
    ]
    assert hits[0].entry.source is Source.MARKDOWN
    assert memory.search("readme reStructuredText", mode="keyword").results[0].entry.file_path == (
        "README.rst"
    )
