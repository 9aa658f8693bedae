"""Issue 34: source code beyond Python and JS/TS is cut along what it defines.

Each sample under ``code_samples/`` is a small file of the kind found in real projects of
its language (a Rust module of flags, a Go package, a Java class...); the expected names
are what a person reading it would list, each named after what it defines.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
from pathlib import Path

import pytest

from engine.analyzer import Symbol, analyze, discovery_drafts, parse_cache
from engine.analyzer import definitions as definitions_module
from engine.analyzer.definitions import definition_drafts, file_drafts
from engine.analyzer.entries import MAX_DRAFT_CHARS
from engine.analyzer.grammars import GRAMMARS, definitions_query, parser_language
from engine.analyzer.languages import language_of
from engine.analyzer.modules import module_summary
from engine.analyzer.outline import file_summary, outline
from engine.analyzer.parse_cache import ParseCache, source_version
from engine.analyzer.pieces import TEXT_CHUNK_CHARS, has_words, reaches, size, words
from engine.analyzer.testing_names import is_test_path

SAMPLES = Path(__file__).parent / "code_samples"
WORD = re.compile(r"[^\W\d_]{2,}")

CASES = [
    pytest.param(
        "flags.rs",
        ["Flag", "Flag.name_long", "Flag.is_switch", "Hidden", "Hidden (Flag)",
         "Hidden.name_long", "Hidden.is_switch", "MAX_DEPTH", "parse", "Mode", "Mode.Search",
         "Mode.Files", "flag", "now"],
        ["tests", "hidden_is_a_switch"],
        {"Flag": "A single command line flag", "parse": "Parses the arguments",
         "Hidden": "Search hidden files", "Flag.name_long": "The long name"},
        "Defines all of the flags available in the command line tool.",
        id="rust",
    ),
    pytest.param(
        "server.go",
        ["Server", "Server.addr", "Handler", "Handler.Handle", "Server.Serve", "New",
         "DefaultAddr", "ErrClosed"],
        ["TestServe"],
        {"Server.Serve": "Serve listens on the address", "New": "New returns a server"},
        "Package server serves the search index over HTTP.",
        id="go",
    ),
    pytest.param(
        "Cache.java",
        ["Cache", "Cache.entries", "Cache.Cache", "Cache.get(K key)",
         "Cache.get(K key, V fallback)", "Cache.Loader", "Cache.Loader.load", "Policy"],
        [],
        {"Cache.get(K key)": "Returns the cached value, or null when absent.",
         "Cache.get(K key, V fallback)": "Returns the cached value, or fallback when absent"},
        "An in-memory cache that evicts the least recently used entries.",
        id="java",
    ),
    pytest.param(
        "Session.kt",
        ["Session", "Session.isExpired", "open", "Store", "Store.save", "Sessions",
         "Sessions.count"],
        [],
        {"Session.isExpired": "Whether the session has expired", "open": "Opens a session"},
        "The session of one signed-in user.",
        id="kotlin",
    ),
    pytest.param(
        "list.c",
        ["node", "node_t", "list_push", "list_free", "color"],
        [],
        {"list_free": "Free every node of the list.", "node": "One node of the list."},
        "A singly linked list of strings, owned by the caller.",
        id="c",
    ),
    pytest.param(
        "parser.cpp",
        ["query", "Query", "Query.Query", "Query.size", "Query.Query", "clamp", "Token"],
        ["TEST"],
        {"Query": "A parsed query: its terms and operators.", "clamp": ""},
        "Parser for the query language.",
        id="cpp",
    ),
    pytest.param(
        "Store.cs",
        ["Example.Storage", "DocumentStore", "DocumentStore.Save", "DocumentStore.Name",
         "IStore", "IStore.Save", "Document"],
        ["DocumentStoreTests", "DocumentStoreTests.SavesADocument"],
        {"DocumentStore": "Stores documents by their identifier.",
         "DocumentStore.Save": "Saves a document."},
        "",  # only a licence header, and no type named after the file
        id="csharp",
    ),
    pytest.param(
        "client.rb",
        ["Registry", "Client", "Client.fetch", "Client.default"],
        [],
        {"Client": "A client with retries.", "Client.fetch": "Fetch a package's metadata"},
        "The HTTP client that talks to the registry.",  # the doc of its one module
        id="ruby",
    ),
    pytest.param(
        "Router.php",
        ["Router", "Router.add", "helper", "Matcher", "Matcher.matches"],
        [],
        {"Router": "Matches a request path", "Router.add": "Register a route for a path."},
        "Routes requests to their controllers.",
        id="php",
    ),
    pytest.param(
        "Player.swift",
        ["Player", "Player.play", "Track", "Playable", "Playable.play", "Track (Playable)",
         "Track.play", "shuffle"],
        [],
        {"Player.play": "Starts playing the track.", "Track": "A track of the library."},
        "Plays audio files from the library.",
        id="swift",
    ),
]  # fmt: skip


def sample(name: str) -> tuple[str, str]:
    text = (SAMPLES / name).read_text(encoding="utf-8")
    language = language_of(name)
    assert language is not None
    return text, language


@pytest.mark.parametrize(("name", "defined", "tests", "docs", "summary"), CASES)
def test_each_definition_is_named_after_what_it_defines_with_its_doc(
    name: str, defined: list[str], tests: list[str], docs: dict[str, str], summary: str
) -> None:
    text, language = sample(name)
    found = outline(text, language)
    assert [d.name for d in found.definitions if not d.test] == defined
    assert [d.name for d in found.definitions if d.test] == tests
    by_name = {d.name: d for d in found.definitions}
    for key, doc in docs.items():
        assert by_name[key].doc.startswith(doc), (key, by_name[key].doc)
    assert file_summary(found, name) == summary


@pytest.mark.parametrize(("name", "defined", "tests", "docs", "summary"), CASES)
def test_chunks_name_their_definitions_and_leave_tests_out(
    name: str, defined: list[str], tests: list[str], docs: dict[str, str], summary: str
) -> None:
    text, language = sample(name)
    drafts = file_drafts(f"src/{name}", text, language, high=100)  # one definition a chunk
    headers = " ".join(d.content.partition("\n")[0] for d in drafts)
    shown = set(docs) | {n for n in defined if "." not in n}  # members on lines of their own
    for definition in shown:
        assert re.search(rf"[:,] {re.escape(definition)}[, ]", headers), definition
    test_names = {t.rpartition(".")[2] for t in tests} - {"tests"}
    for draft in drafts:
        body = draft.content.split("\n", 2)[2]
        assert len(WORD.findall(body)) >= 3, draft.content
        assert not any(t in body for t in test_names), draft.content
    for draft in file_drafts(f"src/{name}", text, language):  # the usual size
        assert draft.section_title and not draft.section_title.startswith("lines ")


def flag(name: str, long_doc_lines: int) -> str:
    doc = "".join(f"    Show {name} in output, paragraph line {i} of the help.\n" for i in range(8))
    return (
        f"/// The --{name.lower()} flag.\n#[derive(Debug)]\nstruct {name};\n\n"
        f"impl Flag for {name} {{\n"
        f'    fn name_long(&self) -> &\'static str {{\n        "{name.lower()}"\n    }}\n'
        f'    fn doc_long(&self) -> &\'static str {{\n        r"\n{doc * long_doc_lines}"\n    }}\n'
        "    fn update(&self, v: FlagValue, args: &mut LowArgs) -> anyhow::Result<()> {\n"
        f"        args.{name.lower()} = v.unwrap_switch();\n        Ok(())\n    }}\n}}\n\n"
    )


FLAGS_HEADER = (
    "// Copyright the authors. Licensed under MIT or Apache-2.0.\n\n"
    "/*!\nDefines all of the flags available in the search tool.\n\n"
    "Each flag is a unit struct with an implementation of the Flag trait: its names, its\n"
    "documentation and how it changes the low level arguments.\n*/\n\n"
    "use crate::flags::{Flag, FlagValue};\n\n"
)


def test_a_trait_implementation_is_named_after_its_type_and_trait() -> None:
    text = FLAGS_HEADER + "".join(flag(f"Flag{i}", 1) for i in range(40))
    drafts = file_drafts("crates/core/flags/defs.rs", text, "Rust")
    titles = [d.section_title for d in drafts]
    assert len(titles) == len(set(titles)), titles  # not 158 chunks all titled "Flag"
    for i in range(40):
        assert any(f"Flag{i} (Flag)" in t.split(", ") for t in titles), i
    doc = next(d for d in drafts if "Defines all of the flags" in d.content)
    assert doc.section_title == "Module documentation of crates/core/flags/defs.rs"


def test_a_long_implementation_is_cut_into_its_methods() -> None:
    text = FLAGS_HEADER + flag("Hidden", 6)
    titles = [d.section_title for d in file_drafts("src/defs.rs", text, "Rust")]
    assert titles[0] == "Module documentation of src/defs.rs"  # more than the summary holds
    assert titles[1].startswith("Hidden, Hidden (Flag)")  # the struct, the impl's head
    assert any(t.startswith("Hidden.doc_long") for t in titles)
    assert titles[-1] == "Hidden.update"  # with the impl's closing brace: no `}` chunk


def test_no_file_holds_more_than_its_share_and_small_definitions_are_grouped(
    tmp_path: Path,
) -> None:
    (tmp_path / "src/flags").mkdir(parents=True)
    (tmp_path / "src/flags/defs.rs").write_text(
        FLAGS_HEADER + "".join(flag(f"Flag{i}", 1) for i in range(150)), encoding="utf-8"
    )
    for i in range(30):
        funcs = "".join(
            f"/// Step {j} of stage {i}, which checks the input and reports what is wrong.\n"
            f"pub fn stage{i}_step{j}(input: &str) -> bool {{\n"
            + "    let trimmed = input.trim_start_matches(' ').to_lowercase();\n" * 6
            + "    trimmed.is_empty()\n}\n\n"
            for j in range(4)
        )
        (tmp_path / f"src/stage{i}.rs").write_text(funcs, encoding="utf-8")
    files = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.rs"))
    uncapped = file_drafts(
        "src/flags/defs.rs", (tmp_path / "src/flags/defs.rs").read_text(), "Rust"
    )
    drafts = definition_drafts(tmp_path, files)
    from_defs = [d for d in drafts if d.file_path == "src/flags/defs.rs"]
    assert len(uncapped) > 0.2 * len(drafts)  # the file would hold far more than its share
    assert len(from_defs) <= definitions_module.MAX_FILE_SHARE * len(drafts) + 1
    assert "Flag149" in "".join(d.content for d in from_defs)  # grouped, not dropped
    assert all(len(d.content) <= 9_000 for d in drafts)


def test_a_single_file_project_is_not_capped() -> None:
    assert definitions_module.file_cap([500]) is None
    assert definitions_module.file_cap([500, 0]) is None
    cap = definitions_module.file_cap([1000, *([10] * 100)])  # the others hold 1,000
    assert cap is not None
    assert cap <= definitions_module.MAX_FILE_SHARE * (cap + 1000) < cap + 1  # the largest


@pytest.mark.parametrize(
    "rel",
    [
        "lib/registry/client_spec.rb",
        "app/src/androidTest/java/com/example/CacheTest.java",
        "shared/src/jvmTest/kotlin/SessionChecks.kt",
        "src/Http/RouterTest.php",
        "Tests/PlayerTests/PlayerTests.swift",
        "benches/search.rs",
        "src/parser_unittest.cc",
        "test.c",
        "tests/test_list.c",
        "system_test.sh",
        "lib/worker_test.exs",
        "lib/src/parser_test.dart",
    ],
)
def test_test_files_of_every_language_are_told_by_their_path(rel: str) -> None:
    assert is_test_path(rel)


def test_ordinary_source_paths_are_not_tests() -> None:
    for rel in ("src/main/java/com/example/Contest.java", "crates/core/flags/defs.rs",
                "lib/registry/client.rb", "src/testing.go", "src/attestation.rs"):  # fmt: skip
        assert not is_test_path(rel), rel


def write_project(root: Path) -> Path:
    files = {
        "Cargo.toml": '[package]\nname = "finder"\n',
        "go.mod": "module example.com/finder\n",
        "src/flags.rs": (SAMPLES / "flags.rs").read_text(),
        "server/server.go": (SAMPLES / "server.go").read_text(),
        "server/routes.go": "// -- routes --\n\npackage server\n\n// Routes lists the paths.\n"
        'func Routes() []string {\n\treturn []string{"/search", "/health"}\n}\n',
        "src/search_spec.rb": "describe 'search' do\n  it 'finds' do\n  end\nend\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def test_go_and_rust_projects_have_symbols_and_file_summaries(tmp_path: Path) -> None:
    analysis = analyze(write_project(tmp_path))
    names = {(s.file, s.name): s for s in analysis.symbols}
    assert names[("server/server.go", "Server.Serve")].kind == "method"
    assert names[("src/flags.rs", "Flag")].kind == "interface"
    assert names[("src/flags.rs", "parse")].summary == "Parses the arguments into a configuration."
    assert ("server/server.go", "TestServe") not in names  # a test, not the package's API
    assert ("src/flags.rs", "hidden_is_a_switch") not in names
    assert ("src/flags.rs", "flag") not in names  # a macro_rules! without #[macro_export]
    drafts = discovery_drafts(analysis)
    module = next(d for d in drafts if d.section_title == "Module src/flags.rs")
    first = module.content.splitlines()[0]
    assert first == (
        "Module src/flags.rs (Rust): Defines all of the flags available in the command line tool."
    )
    package = next(d for d in drafts if d.section_title == "Package server/")
    assert package.content.startswith(
        "Package server/: Package server serves the search index over HTTP.\n2 modules:"
    )
    # "-- routes --" says nothing: the doc of the function the file is named after does
    assert analysis.summaries["server/routes.go"] == "Routes lists the paths."
    code = definition_drafts(tmp_path, sorted(analysis.files))
    assert {d.file_path for d in code} == {"src/flags.rs", "server/server.go", "server/routes.go"}
    assert not any("hidden_is_a_switch" in d.content or "TestServe" in d.content for d in code)


def test_the_grammars_ship_in_their_wheels_and_load_without_the_network(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the network was used")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    parser_language.cache_clear()
    definitions_query.cache_clear()
    for language in GRAMMARS:
        assert definitions_query(language).pattern_count > 0
    text, language = sample("flags.rs")
    assert outline(text, language).definitions


def test_a_long_struct_of_code_is_cut_along_its_fields() -> None:
    fields = "".join(
        f"    pub {name}_by_path: HashMap<PathBuf, Vec<{name.title()}Entry>>,\n"
        f"    pub {name}_order: BTreeMap<usize, Option<{name.title()}Key>>,\n"
        for name in ("hidden", "ignored", "binary", "compressed", "linked", "empty", "other")
        for _ in range(2)
    )
    text = f"/// The state of a walk.\npub struct Walk {{\n{fields}}}\n"
    assert len(text) > 1_200
    drafts = file_drafts("src/walk.rs", text, "Rust")
    titles = [d.section_title for d in drafts]
    assert len(titles) > 1
    assert titles[0].startswith("Walk, Walk.hidden_by_path")
    assert "Walk.compressed_order" in "".join(d.content.split("\n")[0] for d in drafts)
    assert not any("(part" in t for t in titles)


def test_a_struct_of_documented_options_is_read_as_a_page_not_one_chunk_per_option() -> None:
    fields = "".join(
        f"    /// Search {name} files too: the long help of the --{name} option, which\n"
        f"    /// explains when it is useful and what it changes in the results shown.\n"
        f'    #[arg(long, help = "Search {name} files")]\n    pub {name}: bool,\n\n'
        for name in ("hidden", "ignored", "binary", "compressed", "linked", "empty") * 4
    )
    text = f"/// The command line options.\n#[derive(Parser)]\npub struct Opts {{\n{fields}}}\n"
    assert 1_200 * 4 < len(text) < TEXT_CHUNK_CHARS
    drafts = file_drafts("src/cli.rs", text, "Rust")
    assert [d.section_title for d in drafts] == ["Opts"]
    assert "pub compressed: bool" in drafts[0].content


def test_a_function_returning_a_long_help_text_is_cut_into_page_sized_parts() -> None:
    paragraph = (
        "By default the pager takes its settings from the git config file, and each "
        "option may be given there without its leading dashes, as the manual explains.\n"
    )
    help_text = "".join(f"Section {i}\n\n{paragraph * 6}\n" for i in range(20))
    text = (
        "fn long_help(is_term: bool) -> String {\n"
        '    let bold = if is_term { "\\x1b[1m" } else { "" };\n'
        f'    format!(\n        r##"\n{help_text}"##\n    )\n}}\n'
    )
    drafts = file_drafts("src/help.rs", text, "Rust")
    parts = -(-len(text) // TEXT_CHUNK_CHARS)
    assert len(drafts) in (parts, parts + 1)
    assert all(d.section_title.startswith("long_help") for d in drafts)
    code = "".join(
        f"    let value_{i} = compute_value_{i}(input, &mut state, options);\n" for i in range(90)
    )
    plain = file_drafts("src/run.rs", f"fn run(input: &str) {{\n{code}}}\n", "Rust")
    assert len(plain) > 4  # code is still cut at the chunk size


def test_a_grammar_file_unchanged_since_the_last_discovery_is_not_parsed_again(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path / "project")
    cache_path = tmp_path / "analysis-cache.json"
    first_cache = ParseCache(cache_path)
    first = analyze(root, cache=first_cache)
    first_cache.save()
    data = json.loads(cache_path.read_text())
    data["files"]["src/flags.rs"]["summary"] = "from the cache"
    cache_path.write_text(json.dumps(data))
    cache = ParseCache(cache_path)
    again = analyze(root, cache=cache)
    assert cache.misses == 0 and cache.hits == first_cache.misses
    assert again.summaries["src/flags.rs"] == "from the cache"
    assert [s for s in again.symbols if s.file != "src/flags.rs"] == [
        s for s in first.symbols if s.file != "src/flags.rs"
    ]


def test_the_query_files_are_part_of_the_analyzers_version(tmp_path: Path) -> None:
    folder = tmp_path / "analyzer"
    shutil.copytree(Path(parse_cache.__file__).parent, folder)
    before = source_version(folder)
    query = folder / "queries" / "rust.scm"
    query.write_text(query.read_text() + "\n(struct_item) @definition.class\n")
    assert source_version(folder) != before


def test_a_comment_of_its_own_between_definitions_is_kept_and_a_licence_is_not() -> None:
    table = "".join(f"// | {s:<10} | emit        | push        |\n" for s in ("CommitMeta", "Hunk"))
    text = (
        "// Copyright 2020 The Authors. Licensed under the MIT license.\n\n"
        "use std::io;\n\n"
        "/// Where the parser is in git's output.\npub enum State { Header, Hunk }\n\n"
        "// Possible transitions of the state machine, with actions on entry:\n//\n"
        f"{table}\n"
        "/// Walks through the lines of git's output, one state at a time.\n"
        "pub struct StateMachine {\n    state: State,\n}\n"
    )
    drafts = file_drafts("src/delta.rs", text, "Rust", high=200)
    titles = [d.section_title for d in drafts]
    assert "Comment above StateMachine" in titles
    assert (
        "Possible transitions of the state machine"
        in drafts[titles.index("Comment above StateMachine")].content
    )
    assert not any("Copyright" in d.content for d in drafts)


def test_an_opening_comment_keeps_its_purpose_and_drops_its_licence() -> None:
    text = (
        "// Formatting library for C++ - the C API\n//\n"
        "// Copyright (c) 2012 - present, the authors. All rights reserved.\n//\n"
        "// For the license information refer to format.h.\n\n"
        "#ifndef FMT_C_H_\n#define FMT_C_H_\n\n"
        "/* Formats the arguments into the buffer. */\n"
        "int fmt_format(char* buffer, size_t size, const char* format);\n\n#endif\n"
    )
    found = outline(text, "C")
    assert found.doc == "Formatting library for C++ - the C API"
    assert file_summary(found, "include/fmt/fmt-c.h") == found.doc


MACHINE = (
    "/// Walks through the lines of the input, one state at a time.\n"
    "pub struct StateMachine {\n    pub line: String,\n    pub state: State,\n}\n\n"
    "impl StateMachine {\n"
    "    /// Reads every line and hands it to the first handler that takes it.\n"
    "    pub fn consume(&mut self, lines: Vec<String>) {\n"
    "        for line in lines {\n            self.line = line;\n        }\n    }\n}\n"
)
HANDLER = (
    "use crate::delta::StateMachine;\n\n"
    "impl StateMachine {\n"
    "    /// Handles a line of blame output, painting its commit and author.\n"
    "    pub fn handle_blame_line(&mut self) -> bool {\n"
    '        self.line.starts_with("blame") && !self.line.is_empty()\n    }\n}\n\n'
    "impl std::fmt::Display for BlameLine {\n"
    "    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n"
    '        write!(f, "blame line {}", self.number)\n    }\n}\n'
)


def test_an_extension_is_named_after_what_it_adds_not_the_type_it_extends() -> None:
    """`impl StateMachine { fn handle_blame_line }` in a handler's file defines the
    method, not the type: only the file with `struct StateMachine` is titled by it."""
    defining = file_drafts("src/delta.rs", MACHINE, "Rust")
    handler = file_drafts("src/handlers/blame.rs", HANDLER, "Rust")
    assert [d.section_title for d in defining] == ["StateMachine, StateMachine.consume"]
    assert [d.section_title for d in handler] == [
        "StateMachine.handle_blame_line, BlameLine (std::fmt::Display)"
    ]
    assert "StateMachine" not in handler[0].keywords
    assert "StateMachine" in defining[0].keywords


def test_keywords_spell_out_identifiers_joined_by_case() -> None:
    """The keyword index reads `StateMachine` as one word; a question says "state
    machine". A trait's path gives its name, not `std` and `fmt`."""
    (defining,) = file_drafts("src/delta.rs", MACHINE, "Rust")
    (handler,) = file_drafts("src/handlers/blame.rs", HANDLER, "Rust")
    assert "state machine" in defining.keywords
    assert "Display" in handler.keywords and "blame line" in handler.keywords
    assert not {"std", "fmt"} & set(handler.keywords)
    assert "handle blame line" not in handler.keywords  # already words to the index


def test_a_module_that_extends_a_type_defined_elsewhere_summarises_what_it_adds(
    tmp_path: Path,
) -> None:
    """parse_style.rs holds only `impl Style { ... }` (Style is defined in style.rs): its
    summary lists the methods it adds with their docs, not just "Module … (Rust)"."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src/style.rs").write_text(
        "/// How a piece of text is painted.\npub struct Style {\n    pub bold: bool,\n}\n"
    )
    (tmp_path / "src/parse_style.rs").write_text(
        "use crate::style::Style;\n\nimpl Style {\n"
        "    /// Construct a style from a string such as 'bold red ul'.\n"
        "    pub fn from_str(text: &str) -> Self {\n"
        '        Self { bold: text.contains("bold") }\n    }\n}\n'
    )
    drafts = discovery_drafts(analyze(tmp_path))
    module = next(d for d in drafts if d.section_title == "Module src/parse_style.rs")
    assert (
        "- method Style.from_str (line 5): Construct a style from a string such as 'bold red ul'."
        in module.content.splitlines()
    )
    assert "Style.from_str" in module.keywords
    defining = next(d for d in drafts if d.section_title == "Module src/style.rs")
    assert "- class Style (line 2): How a piece of text is painted." in defining.content


def test_a_long_extension_is_cut_into_the_members_it_adds() -> None:
    """Its head (`impl StateMachine {`) is no definition of the type: it goes with the
    first member, unnamed, unless it says something of its own."""
    body = "".join(
        f"    /// Handles a line of {name} output.\n"
        f"    pub fn handle_{name}_line(&mut self) -> bool {{\n"
        f'        self.line.starts_with("{name}") && self.painter.paint("{name} line")\n'
        "    }\n\n"
        for name in ("blame", "grep", "merge")
    )
    text = f"use crate::delta::StateMachine;\n\nimpl StateMachine {{\n{body}}}\n"
    titles = [d.section_title for d in file_drafts("src/handlers/misc.rs", text, "Rust", 200)]
    assert titles == [
        "StateMachine.handle_blame_line",
        "StateMachine.handle_grep_line",
        "StateMachine.handle_merge_line",
    ]
    said = "    // Handlers are tried in order, the most specific first: the first that\n"
    said += "    // takes the line wins, and the others never see it.\n\n"
    text = text.replace("impl StateMachine {\n", "impl StateMachine {\n" + said)
    titles = [d.section_title for d in file_drafts("src/handlers/misc.rs", text, "Rust", 200)]
    assert titles[0] == "StateMachine"  # not "lines 3-6"


def test_code_between_definitions_is_named_after_what_it_declares() -> None:
    """A macro's block (`lazy_static!`, `bitflags!`) defines names the grammar's query
    does not see: its chunk is titled by them, not "lines 3-12"."""
    text = (
        "use regex::Regex;\n\n"
        "lazy_static! {\n"
        '    static ref GITHUB_REMOTE_URL: Regex = Regex::new(r"github").unwrap();\n'
        '    static ref GITLAB_REMOTE_URL: Regex = Regex::new(r"gitlab").unwrap();\n'
        "}\n\n"
        "bitflags! {\n    struct DecorationAttributes: u8 {\n"
        "        const BOX = 0b00000001;\n        const UNDERLINE = 0b00000100;\n    }\n}\n"
    )
    (draft,) = file_drafts("src/remote.rs", text, "Rust")
    assert draft.section_title == "GITHUB_REMOTE_URL, GITLAB_REMOTE_URL, DecorationAttributes"
    assert "decoration attributes" in draft.keywords  # not BOX, UNDERLINE: inside the struct


def test_an_overloads_parameters_do_not_make_it_a_method_of_another_class() -> None:
    """`Logger.log(String fmt, Object... args)`: the dots of varargs are no owner."""
    rel = "src/Logger.java"
    symbols = [
        Symbol("Logger", "class", rel, 1, summary="Writes lines to the log."),
        Symbol("Logger.log(String msg)", "method", rel, 3),
        Symbol("Logger.log(String fmt, Object... args)", "method", rel, 5),
    ]
    summary = module_summary(rel, symbols, "").content
    assert "Public API: 1 class." in summary
    assert "- method" not in summary


GUIDE = (
    "//! # Documentation: FAQ\n//!\n//! ## Comparisons\n//!\n"
    "//! ### How does the quokka parser compare to structopt?\n//!\n"
    + "//! Simple: it is structopt, merged into the crate with its derive API and docs.\n"
    * 3
    + "//!\n//! ```rust\n"
    '#![doc = include_str!("../examples/quick.rs")]\n'
    "//! ```\n//!\n//! ## Why is there a default subcommand of help?\n//!\n"
    + "//! Every command with subcommands gets one, so that users find their way around.\n"
    * 3
)


def test_documentation_written_in_comments_is_read_as_its_markdown() -> None:
    """A crate's guide written as ``//!`` lines (clap's ``src/_faq.rs``, its tutorial around
    ``#![doc = include_str!(…)]``) is documentation: its markers removed, cut along its
    headings and titled by them, not fenced as code in parts numbered by size."""
    drafts = file_drafts("src/_faq.rs", GUIDE, "Rust")
    by_title = {d.section_title: d for d in drafts}
    compare = "Documentation: FAQ > Comparisons > How does the quokka parser compare to structopt?"
    assert (
        compare in by_title
        and "Documentation: FAQ > Why is there a default subcommand of help?" in by_title
    )
    first = by_title[compare]
    assert first.content.startswith(f"Rust documentation in src/_faq.rs, lines {first.line_start}-")
    assert "//!" not in first.content and "```rust" in first.content
    assert "Simple: it is structopt" in first.content
    assert GUIDE.splitlines()[first.line_start - 1].startswith("//! ### How does")
    assert not any("part 1 of" in d.section_title for d in drafts)


def test_code_commented_out_between_definitions_stays_code() -> None:
    text = "fn a() {}\n\n" + "// let x = compute(1);\n" * 4 + "\nfn b() {}\n"
    drafts = file_drafts("src/lib.rs", text, "Rust")
    assert all("documentation in" not in d.content for d in drafts)  # a few lines: code


def test_a_python_module_docstring_that_says_more_than_its_summary_is_documentation() -> None:
    text = (
        '"""Quokka sessions: how the cache keeps them.\n\n'
        "## Eviction\n\nThe oldest session goes first when the disk fills up; nothing is\n"
        'written back, so a stale copy is never served to the quokka.\n"""\n\n'
        "def evict(cache):\n    return cache.pop()\n"
    )
    drafts = file_drafts("quokka/sessions.py", text, "Python")
    doc = drafts[0]
    assert doc.section_title == "Module documentation of quokka/sessions.py > Eviction"
    assert "\n## Eviction\n" in doc.content  # the heading as written, not fenced code
    assert doc.content.startswith("Python documentation in quokka/sessions.py, lines 1-")
    assert '"""' not in doc.content and "The oldest session goes first" in doc.content
    assert drafts[1].section_title == "evict"
    short = '"""Quokka sessions."""\n\ndef evict(cache):\n    return cache.pop()\n'
    assert [d.section_title for d in file_drafts("q.py", short, "Python")] == ["evict"]


def test_the_bounded_counts_answer_as_the_full_ones() -> None:
    """A merge asks whether a run of lines reaches a size or says enough words, reading
    only as far as the answer needs: the answers are :func:`size`'s and :func:`words`'."""
    lines = ["def f(x):", "", "    return x  # the value", "}", "", "class Lens:", "    pass"]
    for start in range(1, len(lines) + 1):
        for end in range(start - 1, len(lines) + 2):
            for limit in (-1, 0, 1, 5, 10, 30, 60, 200):
                assert reaches(lines, start, end, limit) == (size(lines, start, end) >= limit)
                assert has_words(lines, start, end, limit) == (words(lines, start, end) >= limit)


def test_a_table_of_numbers_is_cut_into_parts_that_each_fit_an_entry() -> None:
    """serde_json's ``large_powers64.rs``: a doc comment over constant tables of numbers. A
    part with no words joined the one before it however long they grew together, so one
    part held 14,000 characters and ``init`` stopped on the entry limit."""
    tables = "".join(
        f"const POW5_{i}: [u64; {2 ** (i - 1)}] = [\n"
        + "".join(f"    {(i * 7919 + j) * 104729 % 10**19},\n" for j in range(2 ** (i - 1)))
        + "];\n"
        for i in range(1, 11)
    )
    text = (
        "//! Precalculated large powers for 64-bit limbs.\n\n"
        "/// Large powers (`&[u64]`) for base5 operations.\n" + tables
    )
    for high in (1_200, 4_000, 8_000):
        drafts = file_drafts("src/lexical/large_powers64.rs", text, "Rust", high)
        assert drafts
        assert max(len(d.content) for d in drafts) <= MAX_DRAFT_CHARS
