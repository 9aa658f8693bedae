"""Programs in languages without a grammar here (Elixir, Lua, Haskell, Dart...) are part
of the memory: the analyzer once read only a fixed list of fifteen languages, and a
repository in any other (an Elixir web library, walked in session 14) had its README and
nothing of its code. Such a file is cut at its top-level blocks, and a module holding the
whole file at its body's blocks, each named after what it declares
(engine/analyzer/blocks.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.analyzer.blocks import declared_name, nested_pieces, top_level_pieces
from engine.analyzer.comment_syntax import comment_syntax
from engine.analyzer.definitions import definition_drafts, file_drafts
from engine.analyzer.languages import is_program, language_of

ELIXIR = '''defmodule Shop.Cart do
  @moduledoc """
  A shopping cart kept in the session between requests.

  Items are stored by product id with their quantity, and the
  total is computed again from the price list on every change.
  """

  alias Shop.PriceList

  @doc """
  Adds `quantity` of a product to the cart.

  A product already in the cart has its quantity raised instead.
  """
  def add_item(cart, product_id, quantity \\\\ 1) do
    Map.update(cart, product_id, quantity, &(&1 + quantity))
    |> recompute_total()
  end

  @doc "Removes a product from the cart, whatever its quantity."
  def remove_item(cart, product_id) do
    cart
    |> Map.delete(product_id)
    |> recompute_total()
  end

  defp recompute_total(cart) do
    total = Enum.reduce(cart, 0, fn {id, qty}, sum -> sum + PriceList.price(id) * qty end)
    Map.put(cart, :total, total)
  end
end
'''

LUA = """local M = {}

-- Reads the configuration file and merges it over the defaults.
function M.load_config(path)
  local file = io.open(path, "r")
  if not file then
    return M.defaults
  end
  local text = file:read("*a")
  file:close()
  return M.merge(M.defaults, M.parse(text))
end

local function trim(text)
  return (text:gsub("^%s+", ""):gsub("%s+$", ""))
end

return M
"""


@pytest.mark.parametrize(
    ("name", "language"),
    [("cart.ex", "Elixir"), ("cart_test.exs", "Elixir"), ("init.lua", "Lua"),
     ("Main.hs", "Haskell"), ("app.dart", "Dart"), ("shell.nix", "Nix"), ("x.erl", "Erlang")],
)  # fmt: skip
def test_programs_of_every_language_are_programs(name: str, language: str) -> None:
    assert language_of(name) == language
    assert is_program(language)


@pytest.mark.parametrize("name", ["page.html", "site.css", "schema.sql", "notes.md", "a.json"])
def test_markup_styles_data_and_docs_are_not_cut_into_definitions(name: str) -> None:
    assert not is_program(language_of(name))


def test_a_project_in_a_language_without_a_grammar_has_its_code_in_the_memory(
    tmp_path: Path,
) -> None:
    (tmp_path / "lib" / "shop").mkdir(parents=True)
    (tmp_path / "lib" / "shop" / "cart.ex").write_text(ELIXIR)
    (tmp_path / "lib" / "config.lua").write_text(LUA)
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "cart_test.exs").write_text("defmodule Shop.CartTest do\nend\n")
    files = ["lib/shop/cart.ex", "lib/config.lua", "test/cart_test.exs"]
    drafts = definition_drafts(tmp_path, files)
    paths = {d.file_path for d in drafts}
    assert paths == {"lib/shop/cart.ex", "lib/config.lua"}  # the test file is left out
    assert any("add_item" in d.content for d in drafts)
    assert any("load_config" in d.content for d in drafts)


def test_a_module_holding_the_whole_file_is_cut_at_its_definitions_with_their_docs() -> None:
    drafts = file_drafts("lib/shop/cart.ex", ELIXIR, "Elixir", high=400)
    titles = [d.section_title for d in drafts]
    assert "Shop.Cart" in titles[0]
    assert any("Shop.Cart.add_item" in t for t in titles)
    assert any("Shop.Cart.remove_item" in t for t in titles)
    adding = next(d for d in drafts if "Shop.Cart.add_item" in d.section_title)
    assert "raised instead" in adding.content  # its @doc, blank line and all, with it
    head = drafts[0].content
    assert "computed again from the price list" in head  # the module doc is not cut apart
    assert "lines 1-" not in titles[0]


def test_a_docstring_paragraph_at_the_body_indentation_opens_no_block() -> None:
    lines = ELIXIR.splitlines()
    (module,) = top_level_pieces(lines)
    parts = nested_pieces(module, lines, high=400)
    starts = [lines[p.start - 1].strip() for p in parts]
    assert starts[0] == "defmodule Shop.Cart do"
    head = "\n".join(lines[parts[0].start - 1 : parts[0].end])
    assert "computed again from the price list" in head  # the head holds the module's doc
    assert "Items are stored by product id with their quantity, and the" not in starts
    assert "A product already in the cart has its quantity raised instead." not in starts
    assert [p.names for p in parts][1:] == [
        (),
        ("Shop.Cart.add_item",),
        ("Shop.Cart.remove_item",),
        ("Shop.Cart.recompute_total",),
    ]


def test_a_short_block_is_kept_whole() -> None:
    lines = LUA.splitlines()
    pieces = list(top_level_pieces(lines))
    assert all(nested_pieces(p, lines, high=1_200) == [p] for p in pieces)
    assert "M.load_config" in [n for p in pieces for n in p.names]


def test_a_grammarless_file_says_what_it_is_for_in_its_opening_comment() -> None:
    """Issue 50: a question about a file as a whole reaches its module entry."""
    from engine.analyzer.comments import opening_comment

    ocaml = (
        "(*-----------\n   Copyright (c) 2011 The authors. All rights reserved.\n"
        "   SPDX-License-Identifier: ISC\n  -----------*)\n\n"
        "(* A command line stores pre-parsed information about the\n   arguments. *)\n\nlet x = 1\n"
    )
    assert opening_comment(ocaml) == (
        "A command line stores pre-parsed information about the arguments."
    )
    lua = "#!/usr/bin/env lua\n-- Keymaps of the file browser.\n-- One per action.\nlocal M = {}\n"
    assert opening_comment(lua) == "Keymaps of the file browser. One per action."
    assert opening_comment("let x = 1\n(* later *)\n") == ""
    assert opening_comment("(* never closed\n") == ""


def test_an_opening_comment_is_read_in_the_files_own_comment_syntax(tmp_path: Path) -> None:
    """A Vim plugin says what it is for in ``"`` comments, a Lua module in ``--`` ones:
    the analysis reads each file's opening comment as its language writes comments
    (:mod:`engine.analyzer.comment_syntax`), not as a list of five markers did, which had
    no ``"`` and left a Vim script without its purpose."""
    from engine.analyzer.analysis import analyze

    (tmp_path / "plugin").mkdir()
    (tmp_path / "plugin" / "surround.vim").write_text(
        '" surround.vim - Surroundings\n" Author: Someone\n\n'
        '" Delete, change and add quotes, brackets and tags around text.\n\n'
        "function! s:wrap(text, char)\n  return a:char . a:text . a:char\nendfunction\n"
    )
    (tmp_path / "keymaps.lua").write_text(
        "--- Keymaps of the file browser.\n--- One per action.\nlocal M = {}\nreturn M\n"
    )
    analysis = analyze(tmp_path)
    assert (
        analysis.summaries["plugin/surround.vim"] == "surround.vim - Surroundings Author: Someone"
    )
    assert analysis.summaries["keymaps.lua"] == "Keymaps of the file browser. One per action."


def test_erlang_clauses_name_their_blocks() -> None:
    """``code_samples/gproc_await.erl`` is uwiger/gproc's ``src/gproc.erl`` (517e26d), lines
    660-708: its functions were titled "lines 2902-3091", no declaration matching an Erlang
    clause (``await(Key, Timeout) ->``); a ``-spec`` names the function it types."""
    sample = Path(__file__).parent / "code_samples" / "gproc_await.erl"
    lines = sample.read_text(encoding="utf-8").split("\n")
    syntax = comment_syntax("gproc.erl")
    names = [p.names[0] for p in top_level_pieces(lines, syntax) if p.names]
    assert names == [
        "reg_or_locate", "reg_or_locate1", "valid_key", "default", "await", "await", "await",
        "await1",
    ]  # fmt: skip
    assert declared_name("-spec reg(key()) -> true.") == "reg"
    assert declared_name("foo(bar) = 1") == ""  # no clause without its arrow


def test_scala_modifiers_do_not_hide_what_a_line_declares() -> None:
    """``code_samples/ORunner.scala`` is scopt/scopt's (75cd14c): its functions are declared
    ``private[scopt] def renderUsage[C](``, an access qualifier the Scala specification
    allows (``AccessModifier ::= ('private' | 'protected') [AccessQualifier]``), and the
    file's entries were titled "lines 195-417 (part 2 of 4)"."""
    text = (Path(__file__).parent / "code_samples" / "ORunner.scala").read_text(encoding="utf-8")
    titles = [d.section_title for d in file_drafts("scopt/ORunner.scala", text, "Scala")]
    assert {"ORunner", "ORunner.runEffects"} <= set(titles)
    assert any(t.startswith("ORunner.renderUsage") for t in titles)
    assert not any(t.startswith("lines ") for t in titles)
    assert declared_name("private def foo(x: Int) = 1") == "foo"  # not "def"
    assert declared_name("sealed trait OEffect") == "OEffect"
    assert declared_name("lazy val scopt = (crossProject(JSPlatform, JVMPlatform)") == "scopt"
    assert declared_name("val pos : ?rev:bool -> int -> 'a conv -> 'a -> info -> 'a t") == "pos"
