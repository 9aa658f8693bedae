"""Files a Makefile's recipes write are the build's output, classified as generated
(issue 34: a Rust CLI's shell completion scripts, written by ``make shell-completion``,
outranked its manual)."""

from __future__ import annotations

from pathlib import Path

from engine.analyzer.noise import NoiseClassifier
from engine.analyzer.ownership import _jazzy_outputs, _make_outputs

MAKEFILE = (
    "shell-completion:\n"
    "\tfor shell in bash fish zsh; do ./target/release/tool --generate-completion $$shell"
    " > etc/completion/completion.$$shell; done\n"
    "bench:\n"
    "\t$(BENCH) > $(BENCH_INPUT)\n"
    "\t./tests/run > /dev/null 2>&1\n"
    "\tcat notes >> log.txt\n"
    "\techo $@ > $@\n"
    "not-a-recipe: > build/x.md\n"
)


def test_recipe_redirects_name_the_generated_files() -> None:
    assert _make_outputs(MAKEFILE) == ["/etc/completion/completion.*"]


def test_what_a_makefile_writes_is_generated(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text(MAKEFILE)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "release.Makefile").write_text("docs:\n\ttool --help > help.md\n")
    noise = NoiseClassifier(tmp_path)
    assert noise.kind("etc/completion/completion.zsh") == "generated"
    assert noise.kind("etc/completion/README.md") is None
    assert noise.kind("sub/help.md") == "generated"  # relative to the Makefile's folder
    assert noise.kind("help.md") is None


def test_the_pages_jazzy_writes_are_generated(tmp_path: Path) -> None:
    """jazzy's ``.jazzy.yaml`` names its output folder (``docs`` by default): its HTML and
    the Dash docset copy of it are generated (Alamofire's 332 pages, twice); a guide
    written in that folder stays."""
    (tmp_path / ".jazzy.yaml").write_text("author: Quokka\nmodule: Quokka\n")
    noise = NoiseClassifier(tmp_path)
    assert noise.kind("docs/Classes/Session.html") == "generated"
    docset = "docs/docsets/Quokka.docset/Contents/Resources/Documents/index.html"
    assert noise.kind(docset) == "generated"
    assert noise.kind("docs/Usage.md") is None
    assert noise.kind("Documentation/Usage.md") is None
    assert _jazzy_outputs("output: ../outside\n") == []  # no folder out of the project
    assert _jazzy_outputs("output: /tmp/docs\n") == []


def test_a_jazzy_output_folder_it_names_and_a_config_it_cannot_read(tmp_path: Path) -> None:
    (tmp_path / ".jazzy.yaml").write_text("output: api-docs\nclean: true\n")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / ".jazzy.yaml").write_text("output: [unclosed\n")
    noise = NoiseClassifier(tmp_path)
    assert noise.kind("api-docs/index.html") == "generated"
    assert noise.kind("docs/index.html") != "generated"
    assert noise.kind("tools/docs/index.html") != "generated"


def test_revdepchecks_reports_beside_an_r_package_are_generated(tmp_path: Path) -> None:
    """stringr: revdepcheck's reports (``revdep/failures.md``, 63 kB of other packages'
    check logs) ranked third for "which R version does stringr require?"."""
    (tmp_path / "DESCRIPTION").write_text("Package: frob\nVersion: 1.0.0\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "DESCRIPTION").write_text("Title: no package here\n")
    noise = NoiseClassifier(tmp_path)
    assert noise.kind("revdep/failures.md") == "generated"
    assert noise.kind("revdep/README.md") == "generated"
    assert noise.kind("vignettes/frob.Rmd") is None
    assert noise.kind("sub/revdep/README.md") is None
