"""Documentation written as XML (DocBook, httpd's manual, Maven's xdoc) is read as
markdown line for line; an XML build file, resource or image is not documentation."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from project_files import sources, write

from engine.core.config import load_config
from engine.markdown.xml_docs import reads_as_docs, xml_as_markdown
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.source_report import explain_sources

WORDS = (
    "The tool parses one or more files given on the command line and prints what it finds. "
    "It is useful for detecting errors both in the files and in the parser itself. "
) * 4
DOCBOOK = f"""<?xml version="1.0"?>
<!DOCTYPE refentry PUBLIC "-//OASIS//DTD DocBook XML V4.3//EN" "docbookx.dtd">
<refentry>
  <refentryinfo>
    <title>sprocket Manual</title>
    <copyright><year>2001</year></copyright>
  </refentryinfo>
  <refsect1>
    <title>DESCRIPTION</title>
    <para>{WORDS}</para>
    <indexterm><primary>quokka index term</primary></indexterm>
  </refsect1>
  <refsect1>
    <title>OPTIONS</title>
    <refsect2>
      <title>Quokka mode</title>
      <para>The quokka mode counts every tooth of the sprocket twice.</para>
<programlisting>
sprocket --quokka &lt;file&gt;
</programlisting>
    </refsect2>
  </refsect1>
</refentry>
"""
XDOC = f"""<?xml version="1.0"?>
<document>
  <properties><title>Developer guide</title></properties>
  <body>
    <section name="Building the gearbox">
      <p>{WORDS}</p>
      <subsection name="With Maven">
        <source><![CDATA[mvn -Pquokka install]]></source>
      </subsection>
    </section>
  </body>
</document>
"""
POM = (
    '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>\n'
    + "<dependency><groupId>org.example</groupId><artifactId>gears</artifactId></dependency>\n" * 40
    + "<description>"
    + WORDS
    + "</description></project>\n"
)
STRINGS = (
    '<resources>\n<string name="welcome">Welcome back, the quokka is waiting for you.</string>\n'
    * 30
    + "</resources>\n"
)
SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg"><title>Logo</title><desc>' + WORDS + "</desc>\n"
    '<text x="10" y="20">The quokka gearbox</text></svg>\n'
)


def _headings(markdown: str) -> list[str]:
    return [line for line in markdown.split("\n") if line.startswith("#")]


def test_a_docbook_page_has_headings_by_depth_and_its_code_fenced() -> None:
    out = xml_as_markdown(DOCBOOK)
    assert out.count("\n") == DOCBOOK.count("\n")
    assert _headings(out) == ["## DESCRIPTION", "## OPTIONS", "### Quokka mode"]
    assert "quokka index term" not in out and "sprocket Manual" not in out  # blanked
    assert "sprocket --quokka <file>" in out.split("\n")
    assert "```" in out


def test_an_xdoc_page_is_titled_by_its_sections_names() -> None:
    out = xml_as_markdown(XDOC)
    assert out.count("\n") == XDOC.count("\n")
    assert _headings(out) == ["# Developer guide", "## Building the gearbox", "### With Maven"]
    assert "mvn -Pquokka install" in out


def test_only_a_document_reads_as_documentation() -> None:
    assert reads_as_docs(DOCBOOK) and reads_as_docs(XDOC)
    assert not reads_as_docs(POM) and not reads_as_docs(STRINGS) and not reads_as_docs(SVG)


@given(st.text(alphabet=st.sampled_from(list("<>/a title para![CDATA]\n&;")), max_size=300))
def test_any_xml_keeps_one_line_for_each_line(text: str) -> None:
    assert xml_as_markdown(text).count("\n") == text.replace("\r", "").count("\n")


def test_xml_documents_are_sources_and_searchable(tmp_path: Path, memory: Memory) -> None:
    write(tmp_path, {
        "doc/sprocket.xml": DOCBOOK, "src/site/xdoc/developer.xml": XDOC, "pom.xml": POM,
        "app/res/values/strings.xml": STRINGS, "docs/logo.svg.xml": SVG,
    })  # fmt: skip
    assert sources(tmp_path) == ["doc/sprocket.xml", "src/site/xdoc/developer.xml"]
    rules = {
        f.decision.rel: (f.what, f.decision.rule)
        for f in explain_sources(tmp_path, load_config(tmp_path)).files
    }
    assert rules["doc/sprocket.xml"] == ("docs", "XML")
    assert (
        rules["pom.xml"]
        == rules["app/res/values/strings.xml"]
        == ("other", "not documentation or code")
    )
    assert Indexer(memory).run().errors == []
    hits = memory.search("quokka mode tooth", mode="keyword", limit=3).results
    assert hits and hits[0].entry.file_path == "doc/sprocket.xml"
    assert hits[0].entry.section_title.endswith("Quokka mode"), hits[0].entry.section_title
