"""Languages the table in engine/analyzer/languages.py does not name come from GitHub
Linguist (engine/analyzer/linguist.py): a Vim plugin's ``.vim`` files, Verilog, D, Lean,
GDScript, Fortran 95... were "other, not documentation or code" and their code was left
out of the memory. A language Linguist calls ``programming`` is a program, cut into
definitions at its top-level blocks; markup, data, prose, and an extension Linguist gives
to both a program and something else (``go.mod``, a ProGuard ``.pro``) stay as they were."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from cli_support import fresh_python, git_repo, run_cli
from project_files import write

from engine.analyzer.analysis import analyze
from engine.analyzer.blocks import declared_name
from engine.analyzer.definitions import definition_drafts
from engine.analyzer.languages import PROGRAM_LANGUAGES, is_code, is_program, language_of
from engine.analyzer.linguist import installed_files, program_language, read_types
from engine.core.config import load_config
from engine.services.source_report import explain_sources

VIM_PLUGIN = """" Surround the word under the cursor with the given pair.
" Called by the mapping below; counts are ignored.
function! quokka#surround(open, close) abort
  let word = expand('<cword>')
  execute 'normal! ciw' . a:open . word . a:close
endfunction

" The mapping a user presses: ys followed by the pair.
nnoremap <silent> ys :call quokka#surround('(', ')')<CR>
"""
VERILOG = """// A counter that wraps at the limit given by its parameter.
module quokka_counter #(parameter LIMIT = 10) (
  input wire clk,
  input wire reset,
  output reg [7:0] count
);
  always @(posedge clk) begin
    if (reset || count == LIMIT - 1) count <= 0;
    else count <= count + 1;
  end
endmodule
"""


@pytest.mark.parametrize(
    ("name", "language"),
    [("quokka.vim", "Vim Script"), ("counter.v", "Rocq Prover/V/Verilog"),
     ("bus.sv", "SystemVerilog"), ("alu.vhd", "VHDL"), ("app.d", "D/DTrace/Makefile"),
     ("Main.lean", "Lean/Lean 4"), ("player.gd", "GAP/GDScript"),
     ("solve.f95", "Fortran Free Form"),
     ("io.adb", "Ada"), ("parse.sml", "Standard ML"), ("defs.bzl", "Starlark"),
     ("count.awk", "Awk"), ("completion.nu", "Nu/Nushell"), ("config.jsonnet", "Jsonnet")],
)  # fmt: skip
def test_a_program_the_table_does_not_name_is_linguists(name: str, language: str) -> None:
    assert language_of(name) == language
    assert is_code(language) and is_program(language)
    assert language in PROGRAM_LANGUAGES


NOT_PROGRAMS = (
    "data.csv", "Cargo.lock", "build.log", "gradle.properties", "logo.svg", "paper.tex",
    "refs.bib", "fix.diff", "notes.txt", "view.erb", "page.hbs", "base.j2", "go.mod",
    "proguard.pro", "about.rst.inc", "Find.cmake", "Android.mk", "setup.cfg",
)  # fmt: skip
"""``go.mod`` (Modula-2 or data), a ProGuard ``.pro`` (Prolog or INI), ``.rst.inc``
(Pascal or HTML…) are shared with data or markup; CMake and Makefile are the table's
build files whoever names them; the rest is data, markup or text."""


def test_beside_a_vim_plugin_data_markup_text_and_shared_extensions_stay_out(
    tmp_path: Path,
) -> None:
    write(tmp_path, {"plugin/quokka.vim": VIM_PLUGIN} | {f"etc/{n}": "a b\n" for n in NOT_PROGRAMS})
    analysis = analyze(tmp_path)
    by_language = {stat.language: stat.files for stat in analysis.languages}
    assert by_language == {"Vim Script": 1, "INI": 1, "CMake": 1, "Makefile": 1}
    assert not any(is_program(language_of(name)) for name in NOT_PROGRAMS)
    drafts = definition_drafts(tmp_path, sorted(analysis.files))
    assert {d.file_path for d in drafts} == {"plugin/quokka.vim"}


def test_the_longest_extension_linguist_knows_decides() -> None:
    table = {
        ".in": {"data": {"Template"}},
        ".cmake.in": {"programming": {"CMake"}},
        ".v": {"programming": {"Verilog", "V"}},
        ".mod": {"programming": {"Modula-2"}, "data": {"Go Module"}},
    }
    assert program_language(".cmake.in", table) == "CMake"
    assert program_language(".IN", table) is None
    assert program_language(".tb.V", table) == "V/Verilog"
    assert program_language(".mod", table) is None
    assert program_language(".unknown", table) is None


def test_a_missing_or_malformed_linguist_file_counts_as_empty_and_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    good = tmp_path / "programming.json"
    good.write_text(json.dumps({"Vim Script": {"extensions": [".vim"]}, "Odd": {"x": 1}}))
    broken = tmp_path / "data.json"
    broken.write_text("{not json")
    listed = tmp_path / "markup.json"
    listed.write_text("[1, 2]")
    with caplog.at_level(logging.WARNING, logger="engine.analyzer.linguist"):
        found = read_types(
            {"programming": good, "data": broken, "markup": listed, "prose": tmp_path / "gone"}
        )
    assert found == {".vim": {"programming": {"Vim Script"}}}
    text = caplog.text
    assert "'Odd'" in text and "data.json" in text and "not a table" in text and "gone" in text


def test_the_installed_packages_hold_every_type() -> None:
    files = installed_files()
    assert set(files) == {"programming", "markup", "data", "prose"}
    assert all(path.is_file() for path in files.values())


def test_a_vim_plugin_and_a_verilog_design_are_cut_into_definitions(tmp_path: Path) -> None:
    write(tmp_path, {
        "autoload/quokka.vim": VIM_PLUGIN,
        "rtl/counter.v": VERILOG,
        "data/samples.csv": "a,b\n1,2\n",
        "test/quokka.vim": "call quokka#surround('[', ']')\n",
    })  # fmt: skip
    analysis = analyze(tmp_path)
    by_language = {stat.language: stat.files for stat in analysis.languages}
    assert by_language == {"Vim Script": 2, "Rocq Prover/V/Verilog": 1}
    drafts = definition_drafts(tmp_path, sorted(analysis.files))
    assert {d.file_path for d in drafts} == {"autoload/quokka.vim", "rtl/counter.v"}
    assert any("quokka#surround" in d.content for d in drafts)
    assert any("quokka_counter" in d.content for d in drafts)


def test_a_block_is_named_after_a_qualified_name() -> None:
    """A Vim function (``function!``, ``s:`` and autoload ``#`` names), a Lua method, a
    Perl package's sub: each block was titled by its line numbers or half its name."""
    assert declared_name("function! s:wrap(string, char) abort") == "s:wrap"
    assert declared_name("function! quokka#util#surround(open, close)") == "quokka#util#surround"
    assert declared_name("func! s:redraw()") == "s:redraw"
    assert declared_name("function Buffer:new(opts)") == "Buffer:new"
    assert declared_name("sub Foo::Bar::baz {") == "Foo::Bar::baz"
    assert declared_name("const x: number = 1") == "x"  # a type annotation is not the name
    assert declared_name("with_seed <- function(seed, code) {") == "with_seed"  # R
    assert declared_name("cache <<- new.env()") == "cache"
    assert declared_name("x < -1") == ""


def test_a_lisp_definition_form_names_its_block() -> None:
    """Clojure, Emacs Lisp and Scheme have no grammar here: their blocks were titled by
    their line numbers (weavejester/hiccup: "lines 1-115")."""
    assert declared_name("(defn- render-attrs [attrs]") == "render-attrs"
    assert declared_name("(ns hiccup.core") == "hiccup.core"
    assert declared_name("(defcustom org-roam-directory (expand-file-name") == (
        "org-roam-directory"
    )
    assert declared_name("(cl-defmethod org-roam-node-title ((node org-roam-node)))") == (
        "org-roam-node-title"
    )
    assert declared_name("(define (square x)") == "square"
    assert declared_name("(default-opts)") == ""  # a call, not a definition
    assert declared_name("(let [x 1]") == ""


def test_a_typed_signature_names_its_block() -> None:
    """Dart has no grammar here, and its functions and methods have no keyword: its type,
    then its name and parameters (mobx_codegen's ``store_class_visitor.dart`` was cut into
    blocks titled "lines 294-312")."""
    assert declared_name("bool hasGeneratedToString(BuilderOptions options) {") == (
        "hasGeneratedToString"
    )
    assert declared_name("Future<void> load({required String id}) async {") == "load"
    assert declared_name("Map<String, List<int>>? index(String key) =>") == "index"
    assert declared_name("void main(List<String> arguments) {") == "main"
    assert declared_name("@override void visitFieldElement(FieldElement element) {") == (
        "visitFieldElement"
    )
    assert declared_name("String get name => _name;") == ""  # a getter has no parameters
    assert declared_name("integer function total(values)") == "total"  # Fortran
    assert declared_name("return compute(x);") == ""
    assert declared_name("await store.load();") == ""
    assert declared_name("throw StateError('x');") == ""
    assert declared_name("print(x)") == ""


def test_a_shell_function_names_its_block() -> None:
    assert declared_name("nvm_ls_remote() {") == "nvm_ls_remote"
    assert declared_name("nvm_echo()") == "nvm_echo"  # its brace on the next line
    assert declared_name("nvm() (") == "nvm"  # a body run in a subshell
    assert declared_name("nvm_echo 'x'") == ""


def test_cli_sources_explains_a_vim_plugins_code_as_code(tmp_path: Path) -> None:
    project = git_repo(tmp_path / "p")
    write(project, {
        "README.md": "# Quokka\n\nSurround words.\n",
        "plugin/quokka.vim": VIM_PLUGIN,
        "autoload/quokka.vim": VIM_PLUGIN,
        "test/quokka.vim": "call quokka#surround('[', ']')\n",
        "go.mod": "module example.com/quokka\n",
        "tags.csv": "a,b\n",
    })  # fmt: skip
    done = run_cli("sources", "--explain", cwd=project, home=tmp_path / "home")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "in   autoload/quokka.vim  (code, Vim Script)" in lines
    assert "in   plugin/quokka.vim  (code, Vim Script)" in lines
    assert "out  test/quokka.vim  (code, tests: test/)" in lines
    assert lines[-1] == (
        "docs 1 (markdown 1) · code 2 (Vim Script 2) · left out: tests 1 · "
        "other (not docs or code) 2"
    )
    report = explain_sources(project, load_config(project))
    other = {f.decision.rel for f in report.files if f.what == "other"}
    assert other == {"go.mod", "tags.csv"}


def test_the_analyzer_module_reads_linguist_only_when_asked() -> None:
    """Importing the table reads none of Linguist's files: the first extension the
    table does not know does (once)."""
    code = (
        "import json, sys\n"
        "from engine.analyzer import linguist\n"
        "from engine.analyzer.languages import language_of\n"
        "assert language_of('a.py') == 'Python'\n"
        "before = linguist._by_extension.cache_info().currsize\n"
        "assert language_of('a.vim') == 'Vim Script'\n"
        "print(json.dumps([before, linguist._by_extension.cache_info().currsize]))"
    )
    done = fresh_python(code)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [0, 1]
