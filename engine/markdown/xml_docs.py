"""Documentation written as XML: DocBook books, articles and man pages (``<refentry>``),
Apache httpd's manual pages, Maven's xdoc site pages, DITA topics — read as markdown
line for line by :func:`engine.markdown.html_docs.html_as_markdown` with this module's
:data:`XML` vocabulary.

An ``.xml`` file is as often a build file, a configuration or test data as a document,
so :func:`reads_as_docs` asks for a document's structure and prose:

* an element of the documentation vocabularies that holds paragraphs or sections
  (:data:`_DOCUMENT`: DocBook's ``<para>``/``<sect1>``/``<refsect1>``, HTML's ``<p>``
  that httpd, xdoc and DITA use, xdoc's ``<subsection>``, DITA's ``<topic>``…), which a
  ``pom.xml``, an Android ``strings.xml`` or an SVG never has;
* at least :data:`~engine.markdown.html_docs.DOC_MIN_WORDS` words of text outside tags,
  code and comments;
* no generator's mark (as for HTML).

Headings: a ``<title>`` is one, its level the number of section elements around it
(``<refentry>`` → ``<refsect1>`` → level 2); an xdoc ``<section name="…">`` is one by its
``name``. Code (``<programlisting>``, ``<screen>``, ``<synopsis>``, xdoc's ``<source>``,
httpd's ``<example>``/``<highlight>``…) keeps its lines; index terms and remarks are
blanked.
"""

from __future__ import annotations

import re
from itertools import islice

from engine.markdown.html_docs import DOC_MIN_WORDS, Markup, html_as_markdown, is_generated

XML_SUFFIXES = (".xml", ".dbk", ".docbook", ".sgml", ".sgm")
"""XML documents, and DocBook's own extensions (SGML DocBook, as PostgreSQL writes it)."""

XML = Markup(
    verbatim=frozenset(
        {"programlisting", "screen", "synopsis", "literallayout", "source", "example",
         "highlight", "pre", "codeblock"}
    ),
    skipped=frozenset(
        {"indexterm", "remark", "comment", "info", "bookinfo", "articleinfo", "refentryinfo",
         "refmeta", "authorgroup", "copyright", "legalnotice", "related", "seealso",
         "prolog", "script", "style"}
    ),
    sections=frozenset(
        {"book", "article", "part", "chapter", "appendix", "preface", "glossary",
         "reference", "refentry", "refsection", "refsect1", "refsect2", "refsect3",
         "refsynopsisdiv", "section", "simplesect", "sect1", "sect2", "sect3", "sect4",
         "sect5", "manualpage", "modulesynopsis", "document", "subsection", "topic",
         "concept", "task"}
    ),
    titles=frozenset({"title"}),
)  # fmt: skip
"""The elements of DocBook, httpd's manual, Maven's xdoc and DITA (:class:`Markup`)."""

_DOCUMENT = re.compile(
    r"<(?:para|simpara|p|refsect[1-3]|sect[1-5]|subsection|chapter|manualpage|topic"
    r"|concept|task|refentry)\b",
    re.IGNORECASE,
)
_HIDDEN = re.compile(
    r"<(" + "|".join(sorted(XML.verbatim | {"indexterm", "remark"})) + r")\b.*?</\1\s*>"
    r"|<!--.*?-->|<!\[CDATA\[.*?\]\]>|<!DOCTYPE[^>]*>",
    re.IGNORECASE | re.DOTALL,
)
"""What is not prose: code, index terms, remarks, comments, CDATA and the doctype."""
_TAG = re.compile(r"<[^>]*>")
_WORD = re.compile(r"[^\W\d_]{2,}")


def reads_as_docs(text: str) -> bool:
    """Whether the XML ``text`` is a document (module docstring): the elements of one,
    enough words of prose, no generator's mark."""
    if _DOCUMENT.search(text) is None or is_generated(text):
        return False
    visible = _TAG.sub(" ", _HIDDEN.sub(" ", text))
    words = islice(_WORD.finditer(visible), DOC_MIN_WORDS)  # enough found: stop there
    return sum(1 for _ in words) >= DOC_MIN_WORDS


def xml_as_markdown(text: str) -> str:
    """``text`` (an XML document) as markdown, line for line (module docstring)."""
    return html_as_markdown(text, XML)
