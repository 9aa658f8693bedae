"""The Dependencies entry reads what a Julia, R or Nim package requires from its manifest.

Found by walking Literate.jl, stringr and nim-chronos: "which Julia (R, Nim) version is
required?" is a line of ``Project.toml``, ``DESCRIPTION`` or ``chronos.nimble``, files that
are neither documentation nor code, so no entry held the answer."""

from __future__ import annotations

from pathlib import Path

from project_files import write

from engine.analyzer import DiscoveryDraft, analyze, discovery_drafts
from engine.analyzer.package_requirements import package_requirements


def dependencies(root: Path) -> DiscoveryDraft:
    found = [d for d in discovery_drafts(analyze(root)) if d.section_title == "Dependencies"]
    assert len(found) == 1
    return found[0]


def test_a_julia_project_says_which_julia_and_packages_it_is_compatible_with(
    tmp_path: Path,
) -> None:
    root = write(tmp_path, {
        "Project.toml": (
            'name = "Frob"\nuuid = "98b081ad-f1c9-55d3-8b20-4c87d4299306"\nversion = "2.1.0"\n\n'
            '[deps]\nJSON = "682c06a0-de6a-54ab-a142-c8b1cf79cde6"\n'
            'REPL = "3fa0cd96-eef1-5676-8a61-b3b8758bbffb"\n\n'
            '[weakdeps]\nPlots = "91a5bcdd-55d7-5caf-9e0b-520d859cae80"\n\n'
            '[compat]\nJSON = "0.21, 1"\njulia = "1.6"\n\n'
            '[extras]\nTest = "8dfed614-e22c-5e08-85e1-65c5234f0b40"\n'
        ),
        "src/Frob.jl": "module Frob\nfrob() = 1\nend\n",
    })  # fmt: skip
    deps = dependencies(root)
    assert deps.file_path == "Project.toml"
    assert "Julia version" in deps.content and "- 1.6\n" in deps.content
    assert "- JSON 0.21, 1\n- REPL\n" in deps.content
    assert "- Plots\n" in deps.content and deps.content.endswith("- Test")
    assert "682c06a0" not in deps.content


def test_an_r_description_says_which_r_and_packages_it_needs(tmp_path: Path) -> None:
    root = write(tmp_path, {
        "DESCRIPTION": (
            "Package: frob\nTitle: Frob Strings\nVersion: 1.5.2\n"
            "Depends: \n    R (>= 3.6)\nImports: \n    cli,\n    glue (>= 1.6.1),\n"
            "    lifecycle (>= 1.0.3)\nSuggests: covr, testthat (>= 3.0.0)\n"
            "Config/testthat/edition: 3\n"
        ),
        "R/frob.R": "frob <- function(x) x\n",
    })  # fmt: skip
    deps = dependencies(root)
    assert deps.file_path == "DESCRIPTION"
    assert "R version (`Depends`) (DESCRIPTION):\n- R (>= 3.6)\n" in deps.content
    assert "Imports (DESCRIPTION):\n- cli\n- glue (>= 1.6.1)\n- lifecycle (>= 1.0.3)\n" in (
        deps.content
    )
    assert "- covr\n- testthat (>= 3.0.0)" in deps.content
    assert "edition" not in deps.content


def test_a_description_without_a_package_field_is_no_r_package(tmp_path: Path) -> None:
    write(tmp_path, {"DESCRIPTION": "Depends: something, else\n"})
    assert package_requirements(tmp_path) == []


def test_a_nimble_file_says_which_nim_and_packages_it_requires(tmp_path: Path) -> None:
    root = write(tmp_path, {
        "frob.nimble": (
            'packageName   = "frob"\nversion       = "4.4.0"\n'
            'requires "nim >= 1.6.16",\n         "results",\n         "stew >= 0.5.0"  # ok\n'
            'requires("bearssl >= 0.2.8",\n  "httputils")\nrequires(\n  "zippy"\n)\n\n'
            'let nimc = getEnv("NIMC", "nim")\n'
            'task test, "Run all tests":\n  exec "nim c -r tests/testall"\n'
        ),
        "frob.nim": "proc frob*(): int = 1\n",
    })  # fmt: skip
    deps = dependencies(root)
    assert deps.file_path == "frob.nimble"
    assert "Nim version" in deps.content and "- nim >= 1.6.16\n" in deps.content
    assert "- results\n- stew >= 0.5.0\n- bearssl >= 0.2.8\n- httputils\n- zippy" in deps.content
    assert "NIMC" not in deps.content and "tests/testall" not in deps.content


def test_cabal_flags_are_listed_with_their_description_and_default(tmp_path: Path) -> None:
    """hakyll: "which cabal flags turn off the preview server?" is a ``flag`` stanza of
    ``hakyll.cabal``, which no entry held."""
    root = write(tmp_path, {
        "frob.cabal": (
            "Name:    frob\nVersion: 4.17.0.0\n\nDescription:\n  Frob things.\n  Flag this.\n\n"
            "-- A comment\nFlag previewServer\n  Description: Include the preview\n"
            "               server\n  Default:     True\n  Manual:      True\n\n"
            "flag usePandoc\n  description: Include Pandoc support\n  default: False\n\n"
            "Library\n  Default-language: Haskell2010\n  Build-depends: base >= 4.12 && < 5\n"
        ),
        "lib/Frob.hs": "module Frob where\n\nfrob :: Int\nfrob = 1\n",
    })  # fmt: skip
    deps = dependencies(root)
    assert deps.file_path == "frob.cabal"
    assert (
        "- previewServer (default True, manual True): Include the preview server\n"
        "- usePandoc (default False): Include Pandoc support"
    ) in deps.content
    assert "Frob things" not in deps.content and "Haskell2010" not in deps.content
