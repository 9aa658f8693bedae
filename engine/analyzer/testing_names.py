"""Which file is a test by its name: one rule over the words of the name, for every language.

A test file's name says so in its first or last word, whatever the language and its test
tool: ``test_cli.py``, ``util_test.go``, ``router.test.ts``, ``FooTests.kt``,
``RouterTest.php``, ``client_spec.rb``, ``FooSpec.scala``, ``Spec.hs``, ``system_test.sh``,
``parser_unittest.cc``, ``test.c``, Django's ``tests.py``. The name without its last
extension (the language's: ``.ts`` of ``router.test.ts``) is cut into words at ``_``,
``-``, ``.``, digits and case changes (``HTTPServerTest`` → ``HTTP Server Test``); a file
is a test when its first or last word is ``test``, ``tests``, ``spec`` or ``specs`` (any
case), when its last word, after another, is ``unittest`` or ``unittests``, or when it is
pytest's ``conftest.py``. Test support named so is a test too (``test_helper.rb``,
``spec_helper.rb``, ``TestUtils.java``): it answers the same few questions as the tests.

Decided, for what the words leave out or take in:

- Whole words only: ``contest.py``, ``latest.go``, ``attestation.rs``, ``testify.go``,
  ``Tester.java``, ``specification.py`` are the project's code. A word that only ends in
  ``test`` is not one (``fastest``, ``shortest``), except ``unittest``, a test's name in
  many projects (``*_unittest.cc``); alone it names the framework (``_pytest/unittest.py``,
  a compatibility module), not a test.
- A word inside the name is not enough: ``load_test_data.py`` is a test only by its first
  word, ``run_tests.sh`` by its last (the suite's runner, with the tests);
  ``my_test_utils.py`` is not one.
- ``spec`` is the test word of RSpec, Jasmine/Jest, ScalaTest, Kotest, Spock, hspec,
  busted and others, and also a specification's name: a file called ``arg_spec.h`` or
  ``partition_spec.py`` is taken for a test, as is a library's own test support named
  so (werkzeug's ``test.py``, jinja2's ``tests.py``). In the 21 repositories of the
  benches' question sets and five more, no file that is not a test or its support is
  named so; among the third-party packages of this project's environment, 11 code files
  of 36,505 outside test folders are named for a ``spec`` (bench/RESULTS.md, "One rule
  for a test file's name").
- Only code is a test by its name (:func:`engine.analyzer.languages.is_code`: a program,
  markup or a stylesheet). Documentation is not: ``testing.md``, ``test-plan.md``,
  ``spec.md`` are pages, which the documentation's own rules decide
  (:mod:`engine.services.sources`); nor are data and build files (``openapi-spec.yaml``,
  ``test.json``), nor files of a language the tally does not know (a ``.bats`` suite: no
  language the memory indexes, and its name holds no test word).
- Test folders (``tests/``, ``spec/``, ``__tests__/``) are decided where folders are
  (:mod:`engine.analyzer.noise`, :mod:`engine.analyzer.structure`), not here.
"""

from __future__ import annotations

import re

TEST_WORDS = frozenset({"test", "tests", "spec", "specs"})
"""The words that make a code file a test as its name's first or last word."""
UNIT_TEST_WORDS = frozenset({"unittest", "unittests"})
"""The words that make a code file a test as its name's last word after another."""
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")
"""A word of a name: a run of capitals (an acronym, ``HTTP``), or a word in any case with
at most one leading capital (``Server``, ``test``). Digits and separators split words,
and a single letter is none (tsd's ``index.test-d.ts``: ``index test``)."""


def name_words(name: str) -> list[str]:
    """The words of the file name ``name`` without its last extension, in lower case:
    ``router.test.ts`` → ``router test``, ``HTTPServerTests.kt`` → ``http server tests``."""
    dot = name.rfind(".")
    stem = name[:dot] if dot > 0 else name
    return [word.lower() for word in _WORD.findall(stem) if len(word) > 1]


def is_test_name(name: str) -> bool:
    """Whether the file called ``name`` (no folder) is a test by its name (this module's
    rule): a code file whose first or last word is a test word, or ``conftest.py``."""
    if name == "conftest.py":
        return True
    words = name_words(name)
    if not words:
        return False
    named = words[0] in TEST_WORDS or words[-1] in TEST_WORDS
    if not named and not (len(words) > 1 and words[-1] in UNIT_TEST_WORDS):
        return False
    # Imported here: the prompt hook's classify_path meets few test names, and the tally's
    # module would cost each prompt ~5 ms of imports.
    from engine.analyzer.languages import is_code, language_of

    return is_code(language_of(name))
