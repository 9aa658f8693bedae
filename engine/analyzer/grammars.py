"""The tree-sitter grammars the analyzer reads source code with, and what each language
calls a test, a private name and a doc comment.

Each grammar is a pip package of its own (``tree-sitter-rust``...) that ships a compiled
parser in its wheel: nothing is downloaded at run time. What a file defines is asked of
the syntax tree with a query file per language (``queries/<name>.scm``, in the style of
tree-sitter's ``tags.scm``); the rest, here, is what those queries cannot say.
Grammars are imported on the first file of their language.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Language, Query

QUERIES = Path(__file__).parent / "queries"


@dataclass(frozen=True, slots=True)
class Grammar:
    """One language's parser and the conventions read from its definitions."""

    package: str
    """The distribution that ships the parser (``tree-sitter-rust``)."""
    function: str = "language"
    """The function of the package's module that returns the parser."""
    query: str = ""
    """The query file's stem under ``queries/``; the package's module name by default."""
    test: str = r"(?!)"
    """A definition whose head (its attributes, annotations and first line) matches this is
    a test, with everything inside it."""
    private: str = r"(?!)"
    """A definition whose head before its name matches this is not public."""
    public: str = ""
    """Where set, a definition is public only if its head before its name matches this
    (or it sits in an interface or a trait implementation)."""
    exported_by_case: bool = False
    """Go: a name is public when it starts with a capital letter."""
    wrappers: frozenset[str] = frozenset()
    """Parents that are a definition's real extent when it is their only definition
    (C++ ``template <...>``, Go's ``type``, ``const`` and ``var`` blocks)."""
    attributes: frozenset[str] = frozenset()
    """Nodes before a definition that belong to it (Rust ``#[derive(...)]``)."""

    @property
    def module(self) -> str:
        return self.package.replace("-", "_")

    def tests(self, head: str) -> bool:
        return _pattern(self.test).search(head) is not None

    def is_private(self, head: str) -> bool:
        if self.public and _pattern(self.public).search(head) is None:
            return True
        return _pattern(self.private).search(head) is not None


_JVM_TEST = (
    r"@(?:[\w.]+\.)?(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b"
    r"|\bextends\s+(?:[\w.]+\.)?TestCase\b"
)
GRAMMARS: dict[str, Grammar] = {
    "Rust": Grammar(
        "tree-sitter-rust",
        test=r"#\[(?:[\w:]+::)?(?:test|bench)\b"
        r"|#\[cfg\((?![^\]]*\b(?:not|any)\s*\()(?:all\()?[^\]]*\btest\b",
        public=r"\bpub\b|#\[macro_export\]",
        attributes=frozenset({"attribute_item"}),
    ),
    "Go": Grammar(
        "tree-sitter-go",
        test=r"^func\s+(?:(?:Test|Benchmark|Fuzz)\w*\s*\(\s*\w+\s+\*testing\.[TBFM]\b"
        r"|Example\w*\s*\(\s*\))",
        exported_by_case=True,
        wrappers=frozenset({"type_declaration", "const_declaration", "var_declaration"}),
    ),
    "Java": Grammar("tree-sitter-java", test=_JVM_TEST, private=r"\bprivate\b"),
    "Kotlin": Grammar("tree-sitter-kotlin", test=_JVM_TEST, private=r"\b(?:private|internal)\b"),
    "C": Grammar("tree-sitter-c", private=r"^\s*static\b"),
    "C++": Grammar(
        "tree-sitter-cpp",
        test=r"^\s*(?:TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P|TEST_CASE|SCENARIO)\s*\(",
        private=r"^\s*static\b",
        wrappers=frozenset({"template_declaration"}),
    ),
    "C#": Grammar(
        "tree-sitter-c-sharp",
        test=r"\[(?:Test|TestCase|TestMethod|Fact|Theory|TestFixture|TestClass)\b",
        public=r"\b(?:public|protected)\b",
    ),
    "Ruby": Grammar(
        "tree-sitter-ruby",
        test=r"<\s*(?:Minitest::Test|Test::Unit::TestCase|ActiveSupport::TestCase)\b",
    ),
    "PHP": Grammar(
        "tree-sitter-php",
        function="language_php",
        test=r"\bextends\s+\\?(?:\w+\\)*TestCase\b",
        private=r"\b(?:private|protected)\b",
    ),
    "Swift": Grammar(
        "tree-sitter-swift",
        test=r":\s*XCTestCase\b|@(?:Test|Suite)\b",
        private=r"\b(?:private|fileprivate)\b",
    ),
}
"""By the analyzer's language name (:mod:`engine.analyzer.languages`)."""

PACKAGES = tuple(g.package for g in GRAMMARS.values())
_CPP_HEADER = re.compile(r"^\s*(?:class|namespace|template\s*<)|\bstd::", re.MULTILINE)


def grammar_language(language: str, rel: str, text: str) -> str | None:
    """The grammar to read ``rel`` with: its language, or C++ for a C header that uses
    C++ (``.h`` files are counted as C); ``None`` when no grammar reads it."""
    if language == "C" and rel.endswith(".h") and _CPP_HEADER.search(text[:50_000]):
        return "C++"
    return language if language in GRAMMARS else None


@cache
def parser_language(language: str) -> Language:
    """The compiled grammar of ``language`` (a key of :data:`GRAMMARS`)."""
    from tree_sitter import Language

    grammar = GRAMMARS[language]
    module = importlib.import_module(grammar.module)
    return Language(getattr(module, grammar.function)())


@cache
def definitions_query(language: str) -> Query:
    """The compiled query of ``queries/<name>.scm`` for ``language``."""
    from tree_sitter import Query

    grammar = GRAMMARS[language]
    name = grammar.query or grammar.module.removeprefix("tree_sitter_")
    source = (QUERIES / f"{name}.scm").read_text(encoding="utf-8")
    return Query(parser_language(language), source)


@cache
def _pattern(source: str) -> re.Pattern[str]:
    return re.compile(source, re.MULTILINE)
