"""Telling a project's own code and docs from the files that only accompany them.

Release notes, example and tutorial programs, tests, vendored copies of dependencies and
generated files answer few of a newcomer's questions one by one, yet they can outnumber
the project's own files many times over. :func:`classify_path` names the kind of such a
file from its path alone (no reading), so the analyzer can describe each kind in one
summary and the indexer can leave them out; ``None`` means the project's own material.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from engine.analyzer.doc_kinds import (
    DOCS_FOLDERS,
    LICENCE_NAME,
    Siblings,
    is_bare_name,
    is_prose_name,
    linguist_dialect,
    listing,
    newer_release,
    rendered_from,
)
from engine.analyzer.gitignore import IgnoreRules, is_ignored, setting_patterns
from engine.analyzer.includes import MAX_STUB_BYTES, included_file
from engine.analyzer.manifests import declared_major
from engine.analyzer.testing_names import (
    is_example_name,
    is_test_folder,
    is_test_name,
    named_for_specs,
)
from engine.analyzer.translations import translation_of
from engine.core.errors import EngineError
from engine.guards.files import read_project_bytes, resolve_inside

if TYPE_CHECKING:
    from engine.analyzer.ownership import Ownership

NoiseKind = Literal[
    "release-notes", "old-versions", "translations", "examples", "tests", "vendored",
    "generated", "excluded",
]  # fmt: skip
NOISE_KINDS: tuple[NoiseKind, ...] = (
    "release-notes",
    "old-versions",
    "translations",
    "examples",
    "tests",
    "vendored",
    "generated",
    "excluded",
)
"""``excluded``: named by the ``analyzer_exclude`` setting (never by the path alone);
``old-versions``: the pages of an earlier version kept beside the current one in a declared
docs site, what a top-level ``deprecated/``, ``obsolete/`` or ``attic/`` folder holds
(stb's ``deprecated/stb_image.c`` beside ``stb_image.h``): kept, no longer maintained, and
a file's copies for earlier releases beside it (``NoiseClassifier.superseded``)."""

_RELEASE_FILE = re.compile(
    r"^(?:change[-_]?log|changes|history|news|releases?|release[-_]notes?|whats[-_]?new)"
    r"(?:[-_](?:v?\d[\w.-]*|notes?|old|archive))?(?:\.(?:md|markdown|mdx|rst|txt|adoc))?$",
    re.IGNORECASE,
)
_RELEASE_DIRS = frozenset({"changelog", "changelogs", "changes", "release-notes", "releases"})
_EXAMPLE_DIRS = frozenset(
    {
        "docs_src", "example", "examples", "sample", "samples", "demo", "demos",
        "tutorial", "tutorials", "cookbook", "playground", "snippets", "docs_examples",
        "_example", "_examples",  # Go: the go tool skips folders named _x (no packages)
    }
)  # fmt: skip
_DOC_PAGE_DIRS = frozenset({"tutorial", "tutorials", "cookbook"})
"""Example folders whose markdown is documentation (a docs site's tutorial pages)."""
_FOLDER_README = re.compile(r"^readme(?:\.[a-z]+)?$", re.IGNORECASE)
"""A folder's README (``README``, ``README.md``, ``README.rst``): the page GitHub shows for
the folder, written for its reader. In an example's folder it says what the example shows
(terraform-aws-vpc's ``examples/secondary-cidr-blocks/README.md``, clikt's
``samples/json/README.md``): documentation, where the example's code is not the project's.
In a test folder, the README right in it says how the tests run and what they need (CSV.jl's
``test/README.md``: where its fixtures come from), and so does a suite's, right in a folder
below it that holds code (Reloader's ``test/e2e/README.md``); one in a folder of data only,
or further down, may be a fixture."""
_SHIPPED_FOLDERS = {
    "lib": re.compile(r"mix\.exs|[\w.-]+\.gemspec"),
    "src": re.compile(r"shard\.yml"),
}
"""A folder every file of which a package manager builds into the package or ships, and
the manifest that says so beside it: mix compiles ``lib/`` (``elixirc_paths``), a gemspec
puts ``lib/`` on the load path (``require_paths``), Crystal's shards require from ``src/``.
Their tests live in ``test/`` or ``spec/``, never there."""
_LOOK_LIMIT = 2_000
"""Files of a folder looked through for a kind of file (:meth:`NoiseClassifier._holds`)."""


def _is_feature(name: str) -> bool:
    """Whether the file called ``name`` is a Gherkin feature (Cucumber's, Behat's, behave's)."""
    return name.lower().endswith(".feature")


_DOC_PAGE = re.compile(r"\.(?:md|markdown|mdx|rst|txt|adoc)$", re.IGNORECASE)
_VENDOR_DIRS = frozenset(
    {"vendor", "vendored", "_vendor", "third_party", "third-party", "thirdparty", "3rdparty",
     "extern", "external", "node_modules", "bower_components"}
)  # fmt: skip
_SUPERSEDED_DIRS = frozenset({"deprecated", "obsolete", "attic"})
"""Top-level folders a project names for what it keeps but no longer maintains (below the
top, ``deprecated/`` is more often a package's API of that name)."""
_GENERATED_DIRS = frozenset({"generated", "__generated__", "gen", "autogen"})
_GENERATED_FILE = re.compile(
    r"(?:_pb2(?:_grpc)?\.pyi?|\.pb\.go|\.min\.(?:js|css)|\.bundle\.js|\.generated\.\w+"
    r"|\.d\.ts\.map|\.map)$"
    r"|^(?:package-lock\.json|yarn\.lock|pnpm-lock\.yaml|poetry\.lock|uv\.lock|Cargo\.lock"
    r"|Pipfile\.lock|composer\.lock|Gemfile\.lock|go\.sum"
    r"|llms-(?:full|ctx|ctx-full)\.txt)$"
)
"""Files their names say a tool made: protobuf's and bundlers' output, lock files, and the
expansions of an ``llms.txt`` (llmstxt.org: ``llms-ctx.txt``, ``llms-ctx-full.txt`` and
``llms-full.txt`` are its linked pages concatenated by a tool, ``llms_txt2ctx`` or a docs
site's plugin: the project's docs a second time). ``llms.txt`` itself is written by hand."""
_PACKAGE_MANIFEST = re.compile(
    r"pubspec\.yaml|package\.json|Cargo\.toml|pyproject\.toml|setup\.py|go\.mod|mix\.exs"
    r"|composer\.json|pom\.xml|build\.gradle(?:\.kts)?|Package\.swift|build\.sbt"
    r"|rebar\.config|project\.clj|deps\.edn|DESCRIPTION|[\w.-]+\.(?:gemspec|csproj|fsproj|cabal|nimble)"
)
"""The file that makes a folder a package in its language's package manager."""
_VERSION_DIR = re.compile(r"^(?:v|version[-_]?)(\d+)(?:\.(?:\d+|x))*$", re.IGNORECASE)
"""A docs folder named for a version: ``v2``, ``v1.x``, ``version-3.1``."""
_VERSIONED_DOCS = re.compile(r"^(?:(?P<id>[\w-]+)_)?versioned_docs$")
"""Docusaurus's folder of released versions' docs (``<id>_`` for a second docs plugin)."""
_COPY_SHARE = 0.5
"""The share of a versioned document's lines that the current one must hold for it to be
a copy of it."""
_COPY_READ_BYTES = 4 << 20
"""How much of each document the comparison reads."""
_DOCS_EXAMPLE_SOURCE = re.compile(r"\.(?:py|[cm]?[jt]sx?|go|rb|rs|java|kt|php|sh)$")


def classify_path(rel: str) -> NoiseKind | None:
    """The kind of accompanying file at the project-relative posix path ``rel``, or
    ``None`` for the project's own code and documentation.

    Folders decide first (a test inside ``examples/`` is an example), from the top down;
    then the file name. Source files under ``docs/`` are the docs' example programs.
    """
    found = decide_path(rel)
    return found[0] if found is not None else None


def decide_path(rel: str) -> tuple[NoiseKind, str] | None:
    """:func:`classify_path`'s kind with the place that decides it: the folder
    (``docs_src/``), the file itself (``CHANGELOG.md``), or ``""`` for a test file that
    lives beside the code."""
    parts = rel.split("/")
    folders, name = parts[:-1], parts[-1]
    packages = _package_path_start(folders)
    for depth, folder in enumerate(folders[:packages]):
        kind = _folder_kind(folders, depth)
        if kind == "examples" and _example_page(folder, name):
            continue
        if kind == "tests" and depth == len(folders) - 1 and _folder_readme(name):
            continue  # tests/README.md: how to run the tests, for their reader
        if kind == "release-notes" and _DOCS_EXAMPLE_SOURCE.search(name):
            continue  # scripts/changes/publish.ts: the release tooling is code, not notes
        if kind is not None:
            return kind, "/".join(parts[: depth + 1]) + "/"
    if _RELEASE_FILE.match(name) or (
        linguist_dialect(name) is not None and _RELEASE_FILE.match(name.rpartition(".")[0])
    ):  # also in the prose formats Linguist names: History.rdoc, CHANGES.org, NEWS.pod
        return "release-notes", rel
    if is_test_name(name):
        return "tests", ""
    if is_example_name(name):
        return "examples", rel
    if _GENERATED_FILE.search(name):
        return "generated", rel
    if folders and folders[0].lower() in DOCS_FOLDERS and _DOCS_EXAMPLE_SOURCE.search(name):
        return "examples", rel.rpartition("/")[0] + "/"
    return None


_JVM_LANGUAGES = frozenset({"java", "kotlin", "scala", "groovy"})


def _package_path_start(folders: list[str]) -> int:
    """Where a JVM source set's package path starts among ``folders`` (their count when
    there is none): below ``src/<source set>/<language>/`` (Maven's standard directory
    layout, ``src/main/java``; Gradle's source sets, ``src/commonMain/kotlin``) the
    folders are a package's name, ``com/example/demo`` as Spring Initializr writes it,
    not an example folder. The source set's own name still counts (``src/test/java``)."""
    for depth in range(len(folders) - 2):
        if folders[depth] == "src" and folders[depth + 2] in _JVM_LANGUAGES:
            return depth + 3
    return len(folders)


def _example_page(folder: str, name: str) -> bool:
    """Whether ``name`` in the example folder ``folder`` is documentation: any page of a
    tutorial or cookbook folder, the README of any other."""
    if folder.lower() in _DOC_PAGE_DIRS:
        return is_prose_name(name)
    return _folder_readme(name)


def _folder_readme(name: str) -> bool:
    """Whether ``name`` is a folder's README in a prose format (:data:`_FOLDER_README`)."""
    return _FOLDER_README.match(name) is not None and (is_prose_name(name) or is_bare_name(name))


def _folder_kind(folders: list[str], depth: int) -> NoiseKind | None:
    """The kind the folder ``folders[depth]`` gives the files below it, if any."""
    folder = folders[depth].lower()
    if folder in _VENDOR_DIRS:
        return "vendored"
    if folder in _GENERATED_DIRS:
        return "generated"
    if depth == 0 and folder in _SUPERSEDED_DIRS:
        return "old-versions"
    if folder in _RELEASE_DIRS:
        return "release-notes"
    if folder in _EXAMPLE_DIRS:
        return "examples"
    if is_test_folder(folders[depth], folders[:depth]):
        return "tests"
    return None


_ATTRIBUTE_OF: dict[NoiseKind, str] = {
    "vendored": "linguist-vendored",
    "generated": "linguist-generated",
    "examples": "linguist-documentation",
    "release-notes": "linguist-documentation",
}
"""The ``.gitattributes`` attribute whose ``=false`` undoes a path rule of each kind."""


def _named(rules: Sequence[IgnoreRules], rel: str) -> bool:
    """Whether a pattern names ``rel`` or one of the folders above it."""
    parts = rel.split("/")
    folders = ("/".join(parts[:depth]) for depth in range(1, len(parts)))
    return is_ignored(rules, rel, False) or any(is_ignored(rules, f, True) for f in folders)


class NoiseClassifier:
    """:func:`classify_path`, weighed against what the project declares about itself
    (:mod:`engine.analyzer.ownership`).

    - A git submodule, or a file ``.gitattributes`` marks ``linguist-vendored``, is
      vendored; ``linguist-generated`` is generated; code marked ``linguist-documentation``
      is the documentation's examples. ``=false`` (or ``-attr``) undoes the path rule.
    - A vendor-named folder (``vendor/``, ``third_party/``…) is someone else's code unless
      a manifest declares a package at or below it (a workspace member, a module).
    - An example-named folder holds examples, except a Go package that is not ``main``;
      an example- or test-named folder that is (or holds) a package another of the
      project's packages depends on by path is that library (``tokio-test/``).
    - Markdown in a docs folder a docs tool's configuration declares, or that a manifest
      lists (:mod:`engine.analyzer.doc_pages`), is a page of the documentation, never an
      example or a test by its folder's name.
    - A folder below the top level that carries its own licence file is a vendored copy
      only where no declaration claims it: not a declared package (each crate of a Cargo
      workspace ships its licence), not inside a Go module (vendoring there is ``vendor/``).
    """

    def __init__(
        self, root: Path, *, own: Sequence[str] = (), excluded: Sequence[str] = ()
    ) -> None:
        """``own`` and ``excluded`` are patterns in ``.gitignore`` syntax (the settings
        ``analyzer_include`` and ``analyzer_exclude``): files the project counts as its own
        whatever their path, and files it leaves out (``excluded``); ``own`` wins."""
        self.root = root
        self._licensed: dict[str, bool] = {}
        self._packages: dict[str, bool] = {}
        self._own = _setting_rules("analyzer_include", own)
        self._excluded = _setting_rules("analyzer_exclude", excluded)
        self._ownership: Ownership | None = None
        self._decided: dict[str, tuple[NoiseKind, str] | None] = {}
        self._siblings: dict[str, Siblings] = {}
        self._doc_versions: dict[str, set[int]] = {}
        self._held: dict[tuple[str, str], bool] = {}
        self._manifests: dict[tuple[str, str], bool] = {}
        self._major: tuple[int | None] | None = None

    def rendered(self, rel: str) -> str | None:
        """The file beside ``rel`` it was rendered from (:func:`rendered_from`), or ``None``."""
        folder, _, name = rel.rpartition("/")
        return rendered_from(name, self._siblings_of(folder))

    def included(self, rel: str) -> str | None:
        """The project file that the docs page ``rel`` only includes
        (:func:`~engine.analyzer.includes.included_file`), or ``None``."""
        if not _DOC_PAGE.search(rel):
            return None
        try:
            data = read_project_bytes(
                self.root, self.root / rel, max_bytes=MAX_STUB_BYTES + 1, start_only=True
            )
        except (EngineError, OSError):
            return None
        if len(data) > MAX_STUB_BYTES:
            return None
        text = data.decode("utf-8", errors="replace")
        return included_file(rel, text, self._holds_file)

    def _holds_file(self, rel: str) -> bool:
        """Whether the project has a file at ``rel``, inside it once links are resolved
        (the path guard's rule: a link out of the project names none of its files)."""
        try:
            return resolve_inside(self.root, self.root / rel, allow_hidden=True).is_file()
        except (EngineError, OSError):
            return False

    def _siblings_of(self, folder: str) -> Siblings:
        if folder not in self._siblings:
            self._siblings[folder] = Siblings.of(
                [e.name for e in listing(self.root / folder) if not e.name.startswith(".")]
            )
        return self._siblings[folder]

    @property
    def ownership(self) -> Ownership:
        """The project's declarations, read on first use (imported then too: the prompt
        hook's :func:`classify_path` needs none of the parsers)."""
        from engine.analyzer.ownership import read_ownership

        if self._ownership is None:
            self._ownership = read_ownership(self.root, skip=_VENDOR_DIRS)
        return self._ownership

    def kind(self, rel: str) -> NoiseKind | None:
        """The kind of accompanying file at ``rel``, or ``None`` for the project's own."""
        found = self.decide(rel)
        return found[0] if found is not None else None

    def decide(self, rel: str) -> tuple[NoiseKind, str] | None:
        """The kind of ``rel`` and the place that decides it (as :func:`decide_path`)."""
        if rel not in self._decided:
            self._decided[rel] = self._decide(rel)
        return self._decided[rel]

    def _decide(self, rel: str) -> tuple[NoiseKind, str] | None:
        if self._own and _named(self._own, rel):
            return None
        if self._excluded and _named(self._excluded, rel):
            parts = rel.split("/")
            for depth in range(1, len(parts)):
                if _named(self._excluded, "/".join(parts[:depth]) + "/x"):
                    return "excluded", "/".join(parts[:depth]) + "/"
            return "excluded", rel
        return self._declared(rel)

    def _copy_of_other(self, rel: str) -> tuple[NoiseKind, str] | None:
        """What makes ``rel`` a copy of something kept elsewhere, if anything: another
        project's (a submodule, ``linguist-vendored`` code), a build's output
        (``linguist-generated``, written by a build tool, rendered from or only
        including a file of the project), an earlier version or a translation."""
        own = self.ownership
        parent = rel.rpartition("/")[0] + "/" if "/" in rel else ""
        if (submodule := own.submodule(rel)) is not None:
            return "vendored", submodule + "/"
        if own.attribute(rel, "linguist-vendored") and not is_prose_name(rel):
            return "vendored", parent  # for docs it only hides them from the language tally
        if own.attribute(rel, "linguist-generated") or own.written_by_make(rel):
            return "generated", rel
        if (source := self.rendered(rel)) is not None:  # bash.html beside bash.1
            return "generated", f"from {parent}{source}"  # the source is the page
        if (source := self.included(rel)) is not None:  # docs/changes.rst: CHANGES.rst
            return "generated", f"from {source}"
        if (older := self.older_version(rel)) is not None:
            return "old-versions", older
        if (translated := translation_of(self.root, rel)) is not None:
            return "translations", translated
        return None

    def _declared(self, rel: str) -> tuple[NoiseKind, str] | None:
        if (copy := self._copy_of_other(rel)) is not None:
            return copy
        own = self.ownership
        parent = rel.rpartition("/")[0] + "/" if "/" in rel else ""
        found = decide_path(rel)
        if found is None and (suite := self.cucumber_suite(rel)) is not None:
            found = ("tests", suite)
        if found is None:
            if own.attribute(rel, "linguist-documentation") and not _DOC_PAGE.search(rel):
                return "examples", parent
            return self._licensed_copy(rel)
        kind, place = found
        if kind == "tests" and self.shipped(rel):
            return None  # lib/plug/test.ex: the library's testing API, which mix compiles
        if kind == "tests" and is_prose_name(rel) and self._specification(place):
            return None  # specs/asgi.rst: a folder of pages named for a specification
        if kind == "tests" and self._suite_readme(rel, place):
            return None  # test/e2e/README.md: how that suite runs and what it needs
        if kind in ("examples", "tests") and _DOC_PAGE.search(rel) and self.doc_root(rel):
            return None  # docs/v3/examples/greet.md: a page of the declared docs site
        if kind in ("examples", "tests") and _DOC_PAGE.search(rel) and self.listed_page(rel):
            return None  # guides/examples/amazon-sqs.md: a page mix.exs's ex_doc lists
        if kind == "vendored" and _DOC_PAGE.search(rel) and _in_docs(place, self.doc_root(rel)):
            return None  # docs/third-party/bunja.mdx: a page about another project, no copy
        if kind in ("vendored", "old-versions"):
            member = own.enclosing(rel)
            if member is not None and (member + "/").startswith(place):
                return _below(rel, member)
        attribute = _ATTRIBUTE_OF.get(kind)
        if attribute is not None and own.attribute(rel, attribute) is False:
            return _below(rel, place.rstrip("/")) if place.endswith("/") else None
        if kind == "examples" and own.go_library(rel):
            return None
        if kind in ("examples", "tests"):
            library = own.enclosing(rel, libraries=True)
            if library is not None and (library + "/").startswith(place):
                users = own.declared.users.get(library, set())
                if any(not (user + "/").startswith(place) for user in users):
                    return _below(rel, library)  # depended on from outside the folder
        return found

    def doc_root(self, rel: str) -> str | None:
        """The docs folder a docs tool's configuration declares that holds ``rel``
        (``manual/src`` from ``manual/book.toml``), or ``None``. A declaration or folder that
        is itself an example, a test fixture or someone else's (``tests/site/mkdocs.yml``)
        declares nothing for the project. The one rule the indexer's sources and the
        analyzer share."""
        own = self.ownership
        docs = own.doc_root(rel)
        if docs is None:
            return None
        folder = own.doc_roots[docs]
        if self.decide(f"{docs}/_") is not None or (folder and self.decide(f"{folder}/_")):
            return None
        return docs

    def listed_page(self, rel: str) -> str | None:
        """The manifest, not itself accompanying material, that lists ``rel`` as a doc
        page (its project-relative path), or ``None``."""
        manifest = self.ownership.listed_page(rel)
        if manifest is None:
            return None
        folder = posixpath.dirname(manifest)
        return None if folder and self.decide(f"{folder}/_") else manifest

    def older_version(self, rel: str) -> str | None:
        """The folder of an earlier version's documentation that holds ``rel``
        (:meth:`snapshot`, :meth:`older_in_site`), or the newer release of the file that
        ``rel`` is an earlier copy of (:meth:`superseded`), else ``None``."""
        return self.snapshot(rel) or self.older_in_site(rel) or self.superseded(rel)

    def superseded(self, rel: str) -> str | None:
        """The file beside ``rel`` that differs from it only by a higher version in its
        name and holds most of its lines (:func:`newer_release`), else ``None``: LuaRocks
        keeps a ``<package>-<version>-<revision>.rockspec`` for every release, nine of
        them for a small library, each repeating the current one. Code counts too, as
        the names say which is the newest; pages whose names differ by a version but
        whose text does not (``migrating-to-2.0.md``, ``migrating-to-3.0.md``) stay."""
        folder, _, name = rel.rpartition("/")
        newest = newer_release(name, self._siblings_of(folder))
        if newest is None:
            return None
        current = f"{folder}/{newest}" if folder else newest
        return current if self._copied(rel, current, code=True) else None

    def snapshot(self, rel: str) -> str | None:
        """The folder holding ``rel`` when it keeps a copy of a released version's
        documentation beside the current one, else ``None``:

        - Docusaurus's ``versioned_docs/`` (or ``<id>_versioned_docs/``) beside the
          ``versions.json`` that declares its versions: each ``version-*`` folder is a
          release's copy of ``docs/``, which is the current documentation;
        - a document in a folder named for a version (``v1.7/``) whose parent holds the
          same file unversioned, most of the copy's lines in it (jq's
          ``docs/content/manual/v1.7/manual.yml`` beside ``manual.yml``). Code is never a
          copy so: ``api/v1/types.go`` beside ``api/types.go`` is a package of its own.
        """
        parts = rel.split("/")
        for depth, folder in enumerate(parts[:-1]):
            above = "".join(part + "/" for part in parts[:depth])
            versioned = _VERSIONED_DOCS.match(folder)
            if versioned is not None:
                declared = f"{versioned['id'] + '_' if versioned['id'] else ''}versions.json"
                if (self.root / above / declared).is_file():
                    return f"{above}{folder}/"
            if _VERSION_DIR.match(folder) and self._copied(
                rel, above + "/".join(parts[depth + 1 :])
            ):
                return f"{above}{folder}/"
        return None

    def _copied(self, rel: str, current: str, *, code: bool = False) -> bool:
        """Whether the document ``rel`` is a copy of ``current``'s (most of its lines are
        in it); code is never one unless ``code`` (the names say which is newer)."""
        from engine.analyzer.languages import is_code, language_of

        if not code and is_code(language_of(rel.rpartition("/")[2])):
            return False

        def read(path: str) -> bytes:  # the guard refuses a FIFO or a link out of the project
            return read_project_bytes(
                self.root, self.root / path, max_bytes=_COPY_READ_BYTES, start_only=True
            )

        try:
            now, kept = read(current), read(rel)
        except (EngineError, OSError):
            return False
        present = set(now.split(b"\n"))
        lines = [line for line in kept.split(b"\n") if line.strip()]
        same = sum(1 for line in lines if line in present)
        return bool(lines) and same >= _COPY_SHARE * len(lines)

    def older_in_site(self, rel: str) -> str | None:
        """The folder (``docs/v2/``) when the page ``rel`` documents an earlier version of
        the project than the one its docs site also holds, else ``None``.

        A declared docs folder (:meth:`doc_root`) whose sub-folders are named for versions
        (``v1/``, ``v2/``, ``v3/``: at least two of them) keeps each version's manual; the
        current one is the major version the project declares (a Go module path's ``/vN``,
        the ``version`` of ``package.json``, ``Cargo.toml`` or ``pyproject.toml``) where a
        folder is named for it, else the highest. Pages of lower versions repeat the
        current manual's subjects in words that no longer apply."""
        if not _DOC_PAGE.search(rel):
            return None
        docs = self.ownership.doc_root(rel)
        if docs is None:
            return None
        below = rel[len(docs) + 1 :].split("/")
        match = _VERSION_DIR.match(below[0]) if len(below) > 1 else None
        if match is None:
            return None
        versions = self._versions(docs)
        if len(versions) < 2:
            return None
        declared = self.declared_major()
        current = declared if declared in versions else max(versions)
        return f"{docs}/{below[0]}/" if int(match.group(1)) < current else None

    def _versions(self, docs: str) -> set[int]:
        """The major versions named by the sub-folders of the docs folder ``docs``."""
        if docs not in self._doc_versions:
            try:
                with os.scandir(self.root / docs) as it:
                    names = [e.name for e in it if e.is_dir(follow_symlinks=False)]
            except OSError:
                names = []
            found = (_VERSION_DIR.match(n) for n in names)
            self._doc_versions[docs] = {int(m.group(1)) for m in found if m}
        return self._doc_versions[docs]

    def declared_major(self) -> int | None:
        """The project's major version as its root manifest declares it, or ``None``."""
        if self._major is None:
            self._major = (declared_major(self.root),)
        return self._major[0]

    def why_vendored(self, rel: str) -> str:
        """Why the vendored file ``rel`` is someone else's, in a few words."""
        own = self.ownership
        if own.submodule(rel) is not None:
            return "a git submodule (.gitmodules)"
        if own.attribute(rel, "linguist-vendored") and not is_prose_name(rel):
            return ".gitattributes marks it linguist-vendored"
        if classify_path(rel) == "vendored":
            return "a vendor folder that no manifest declares as a package of the project"
        return "it carries a licence file of its own and no manifest declares it"

    def _licensed_copy(self, rel: str) -> tuple[NoiseKind, str] | None:
        """A folder below the top level with a licence of its own that nothing claims."""
        own = self.ownership
        if own.go_module(rel) is not None or own.attribute(rel, "linguist-vendored") is False:
            return None  # a Go module's packages are all its own; the attribute overrules
        parts = rel.split("/")[:-1]
        docs = own.doc_root(rel)  # a docs site's licence page is a page of it (pip's docs/html)
        for depth in range(2, len(parts) + 1):
            folder = "/".join(parts[:depth])
            if docs is not None and (folder == docs or folder.startswith(docs + "/")):
                break
            if self.licensed(folder) and own.member(folder) is None:
                if self._among_packages(folder):
                    continue  # one package of a monorepo's packages/, each with its licence
                return "vendored", folder + "/"
        return None

    def shipped(self, rel: str) -> bool:
        """Whether ``rel`` is in the folder a package manager builds or ships whole
        (:data:`_SHIPPED_FOLDERS`: ``lib/`` beside ``mix.exs`` or a ``.gemspec``, ``src/``
        beside ``shard.yml``): the package's code, whatever its name says. A test there
        would be compiled into the library; a file or folder named for tests there is the
        library's testing API (Plug's ``lib/plug/test.ex``, Phoenix's
        ``lib/phoenix/test/``, crystal-db's ``src/spec.cr``), its tests kept in
        ``test/`` or ``spec/`` beside."""
        parts = rel.split("/")
        for depth, folder in enumerate(parts[:-1]):
            manifest = _SHIPPED_FOLDERS.get(folder)
            if manifest is not None and self._holds_manifest("/".join(parts[:depth]), manifest):
                return True
        return False

    def _holds_manifest(self, folder: str, manifest: re.Pattern[str]) -> bool:
        """Whether ``folder`` holds a file named as ``manifest`` says. Cached."""
        key = (folder, manifest.pattern)
        known = self._manifests.get(key)
        if known is None:
            names = (e.name for e in listing(self.root / folder) if e.is_file())
            known = any(manifest.fullmatch(name) for name in names)
            self._manifests[key] = known
        return known

    def _specification(self, place: str) -> bool:
        """Whether the test folder ``place`` (``specs/``) is named for a specification
        (:func:`~engine.analyzer.testing_names.named_for_specs`) and holds no code: its
        pages are documentation (asgiref's ``specs/``, the ASGI specification)."""
        folder = place.rstrip("/")
        if not place.endswith("/") or not named_for_specs(folder.rpartition("/")[2]):
            return False
        return not self._holds_code(folder)

    def _suite_readme(self, rel: str, place: str) -> bool:
        """Whether ``rel`` is the README of a suite in the test folder ``place``: right in
        a folder directly below it (``test/e2e/README.md``, ``test/loadtest/README.md``)
        that holds code, the suite's tests and the programs that run them. A README in a
        folder of data is a fixture, and one further down may be too."""
        below = rel[len(place) :].split("/") if place.endswith("/") else []
        if len(below) != 2 or not _folder_readme(below[1]):
            return False
        return self._holds_code(place + below[0])

    def _holds_code(self, folder: str) -> bool:
        """Whether ``folder`` holds a file of code at any depth (past :data:`_LOOK_LIMIT`
        files, taken as holding some). Cached."""
        from engine.analyzer.languages import is_code, language_of

        return self._holds(folder, "code", lambda name: is_code(language_of(name)), past=True)

    def cucumber_suite(self, rel: str) -> str | None:
        """Where ``rel`` is a Cucumber suite's, the place that says so, else ``None``: a
        Gherkin feature (``.feature``) anywhere, and every file of a ``features/`` folder
        that holds features (Cucumber's layout: its ``step_definitions/``, ``steps/`` and
        ``support/`` code beside them). A ``features/`` folder without one is code (an
        app's feature modules)."""
        parts = rel.split("/")
        for depth, folder in enumerate(parts[:-1]):
            place = "/".join(parts[: depth + 1])
            if folder.lower() == "features" and self._holds(
                place, "features", _is_feature, past=False
            ):
                return place + "/"
        return "" if _is_feature(parts[-1]) else None

    def _holds(self, folder: str, kind: str, wanted: Callable[[str], bool], *, past: bool) -> bool:
        """Whether ``folder`` holds, at any depth, a file whose name is ``wanted``; past
        :data:`_LOOK_LIMIT` files without one, ``past`` (the answer that changes nothing:
        a test folder stays one, a folder of code stays code). Cached by ``kind``."""
        known = self._held.get((folder, kind))
        if known is None:
            known, seen = False, 0
            for _, dirs, files in os.walk(self.root / folder):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                if any(wanted(name) for name in files):
                    known = True
                    break
                seen += len(files)
                if seen > _LOOK_LIMIT:
                    known = past
                    break
            self._held[(folder, kind)] = known
        return known

    def _among_packages(self, folder: str) -> bool:
        """Whether ``folder`` holds a package manifest, as does a folder beside it: one of
        the project's packages (``packages/core/`` beside ``packages/cli/``, each published
        with its licence) that no workspace file declares (a Dart repository without
        ``melos.yaml``). A vendored copy is one package alone where it was put. Cached."""
        known = self._packages.get(folder)
        if known is None:
            parent, _, name = folder.rpartition("/")
            beside = (e.name for e in listing(self.root / parent) if e.is_dir() and e.name != name)
            known = self._has_manifest(folder) and any(
                self._has_manifest(f"{parent}/{other}") for other in beside
            )
            self._packages[folder] = known
        return known

    def _has_manifest(self, folder: str) -> bool:
        """Whether ``folder`` holds a package's manifest (:data:`_PACKAGE_MANIFEST`)."""
        entries = listing(self.root / folder)
        return any(e.is_file() and _PACKAGE_MANIFEST.fullmatch(e.name) for e in entries)

    def licensed(self, folder: str) -> bool:
        """Whether the project-relative ``folder`` holds a licence file of its own (a file,
        not code: ``cmd/repo/license/`` and ``plugins/license.ts`` are a licence feature)."""
        from engine.analyzer.languages import is_code, language_of

        known = self._licensed.get(folder)
        if known is None:
            names = [e.name for e in listing(self.root / folder) if e.is_file()]
            known = any(LICENCE_NAME.match(n) and not is_code(language_of(n)) for n in names)
            self._licensed[folder] = known
        return known


def _below(rel: str, folder: str) -> tuple[NoiseKind, str] | None:
    """The path rules applied to ``rel`` from ``folder`` down (the folder itself and those
    above it are the project's own), places given from the root."""
    if not folder:
        return None
    found = decide_path(rel[len(folder) + 1 :])
    if found is None:
        return None
    kind, place = found
    return kind, f"{folder}/{place}" if place else place


def _setting_rules(key: str, patterns: Sequence[str]) -> list[IgnoreRules]:
    """The configuration key ``key``'s patterns as rules from the project root (none when
    it names none).

    Raises:
        ConfigError: a pattern git cannot read (:func:`setting_patterns`).
    """
    return [IgnoreRules("", setting_patterns(key, patterns))] if patterns else []


def _in_docs(place: str, doc_root: str | None) -> bool:
    """Whether the vendor-named folder ``place`` (``docs/third-party/``) lies inside the
    project's documentation: below a folder named for docs, or a declared docs root. A
    vendored copy is kept beside the code that uses it, not among the pages about it."""
    above = place.rstrip("/").split("/")[:-1]
    if any(part.lower() in DOCS_FOLDERS for part in above):
        return True
    return bool(doc_root) and place.startswith(f"{doc_root}/")
