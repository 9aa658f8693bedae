"""Which file is a test by its name: one rule over the words of the name, for every language
(and, by the same words, which is an example: :func:`is_example_name`).

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

A test folder is told by the same words (:func:`is_test_folder`): a folder whose first or
last word is a test word holds tests, whatever the language's layout: ``tests/``,
``spec/``, ``__tests__/``, ``integration_tests/``, hono's ``runtime-tests/``, Swift's
``Tests/``, Gradle's source sets beside ``src/main`` (``src/androidTest/``,
``src/jvmTest/``), gson's ``test-shrinker/`` and ``test-jpms/`` (Maven modules that test
the library). Everything in a test folder is the tests', pages and data too. A few
folders hold tests by a convention their words do not tell, each taken on its merits:

- ``testdata/`` (Go: the go tool ignores it; the tests' inputs), ``fixtures/`` and
  ``__fixtures__/`` (test inputs; the second is Jest's), ``__mocks__/`` (Jest's manual
  mocks), ``e2e/`` (end-to-end tests).
- ``benchmarks/``, ``benchmark/`` and ``benches/`` (Rust's: cargo builds each file of
  ``benches/`` as a bench target; asv's ``benchmarks/``): code that measures the
  project, not what it does. Go's benchmarks live in test files, which names decide.
- ``testing/`` at the top of the project only: pytest keeps its suite there. Below the top
  it is a package of test helpers that is part of the library's API (hono's
  ``src/helper/testing/``, Go's ``pkg/testing/``, ``numpy/testing/``).
- ``t/`` and ``xt/`` at the top of the project only: Perl's test scripts (``prove`` and
  ``make test`` run ``t/*.t``; ``xt/`` holds the author's extra tests) and git's and
  other sharness suites. A one-letter word is no word, so the rule above cannot tell.
- ``regress/`` at the top of the project only: the regression tests of OpenBSD's tree and
  the projects that follow it (OpenSSH, tmux: shell scripts and the configurations they
  load), run by ``make regress``.

A folder named for ``spec`` or ``specs`` that holds no code is a specification's, not
a test suite's: asgiref's ``specs/`` is the ASGI specification, pages only, where RSpec's
``spec/`` holds the Ruby that runs (:func:`named_for_specs`; the content is
:class:`engine.analyzer.noise.NoiseClassifier`'s to look at). A ``tests/`` folder holds
tests whatever it holds: its pages are fixtures or notes on the suite.

Not test folders: ``unittest/`` (CPython's ``Lib/unittest/`` is the framework), ``bench/``
(as often a tool's workbench as its benchmarks), a test word inside a word or between
others (``testutils/``; shelf's ``shelf_test_handler/``, a package for testing handlers).
:func:`is_test_path` puts both together: a file is a test by its name or by a folder above
it. Whether the project counts it as its own anyway (the ``analyzer_include`` setting) is
:class:`engine.analyzer.noise.NoiseClassifier`'s to say.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

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
    return _words(name[:dot] if dot > 0 else name)


def _words(text: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(text) if len(word) > 1]


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


EXAMPLE_WORDS = frozenset({"example", "examples"})
"""The words that make a code file an example as its name's first or last word."""


def is_example_name(name: str) -> bool:
    """Whether the file called ``name`` (no folder) is an example program by its name, as
    a test is by :func:`is_test_name`: a code file whose first or last word is
    ``example`` or ``examples`` (fzf's ``shell/completion-examples.nu``, marshmallow's
    ``flask_example.py``, ``ExampleServer.java``). Example folders are
    :mod:`engine.analyzer.noise`'s; ``examples.md`` is a page, which the documentation's
    rules decide. Only these two words: ``sample`` and ``demo`` also name code that
    samples or runs a demonstration mode (``sample.go`` of a statistics package)."""
    words = name_words(name)
    if not words or not (words[0] in EXAMPLE_WORDS or words[-1] in EXAMPLE_WORDS):
        return False
    from engine.analyzer.languages import is_code, language_of  # as in is_test_name

    return is_code(language_of(name))


TEST_FOLDERS = frozenset(
    {"testdata", "fixtures", "__fixtures__", "__mocks__", "e2e", "benchmarks", "benchmark",
     "benches"}
)  # fmt: skip
"""Folders that hold tests though their words do not say so (the module's docstring)."""
TOP_TEST_FOLDERS = frozenset({"testing", "t", "xt", "regress"})
"""Folders that hold tests at the top of the project only (the module's docstring)."""


def is_test_folder(name: str, above: Sequence[str] = ()) -> bool:
    """Whether the folder called ``name`` holds tests, ``above`` the folders above it from
    the project's root (this module's rule): its first or last word is a test word, or it
    is one of :data:`TEST_FOLDERS` (any case), or of :data:`TOP_TEST_FOLDERS` at the top."""
    return _test_folder(name, not above)


@functools.lru_cache(maxsize=4096)
def _test_folder(name: str, top: bool) -> bool:
    """:func:`is_test_folder`, remembered: a project repeats few folder names."""
    folder = name.lower()
    if folder in TEST_FOLDERS or (top and folder in TOP_TEST_FOLDERS):
        return True
    words = _words(name)
    return bool(words) and (words[0] in TEST_WORDS or words[-1] in TEST_WORDS)


SPEC_WORDS = frozenset({"spec", "specs"})
"""The test words that also name a specification (the module's docstring)."""


def named_for_specs(name: str) -> bool:
    """Whether the test folder called ``name`` is one by ``spec`` or ``specs`` alone
    (``spec/``, ``api-specs/``), a word that names a specification as often as RSpec's
    tests: whether it holds tests its content says (:mod:`engine.analyzer.noise`)."""
    words = _words(name)
    ends = {words[0], words[-1]} if words else set()
    return bool(ends & SPEC_WORDS) and not ends & (TEST_WORDS - SPEC_WORDS)


def is_test_path(rel: str) -> bool:
    """Whether the file at the project-relative posix path ``rel`` is a test by its name
    (:func:`is_test_name`) or by a folder above it (:func:`is_test_folder`)."""
    *folders, name = rel.split("/")
    if is_test_name(name):
        return True
    return any(is_test_folder(folder, folders[:depth]) for depth, folder in enumerate(folders))
