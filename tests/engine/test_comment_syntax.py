"""A comment block stays with the declaration after it in a language without a grammar,
whatever the language writes its comments with: the markers are read from Pygments'
lexers (engine/analyzer/comment_syntax.py), where a fixed list (``/*``, ``*``, ``//``,
``#``) once missed Lua's and Haskell's ``--`` and OCaml's ``(*``: 59 of oil.nvim's 699
top-level pieces were a doc comment cut from its function."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from cli_support import fresh_python

from engine.analyzer import comment_syntax as comment_syntax_module
from engine.analyzer.blocks import top_level_pieces
from engine.analyzer.comment_syntax import FALLBACK, CommentSyntax, comment_syntax
from engine.analyzer.definitions import file_drafts

# lua/oil/util.lua (stevearc/oil.nvim), its doc comment parted from its function as a
# file may have it.
LUA = """local M = {}

---Escapes a filename for use in :edit
---@param filename string
---@return string

M.escape_filename = function(filename)
  local ret = vim.fn.fnameescape(filename)
  return ret
end

--[[
Parses an oil url into its scheme and the path after it.
Returns nil for a buffer name that is not an oil url.
]]

M.parse_url = function(url)
  return url:match("^(.*://)(.*)$")
end

return M
"""

HASKELL = """module Options.Applicative.Help.Chunk where

-- | The free monoid on a semigroup 'a'.

newtype Chunk a = Chunk { unChunk :: Maybe a }

{- | Concatenate a list of 'Chunk's with a separator.
     An empty chunk is skipped.
-}

chunked :: (a -> a -> a) -> Chunk a -> Chunk a -> Chunk a
chunked _ (Chunk Nothing) y = y
chunked _ x (Chunk Nothing) = x
"""

# src/cmdliner_arg.mli (dbuenzli/cmdliner), its header and a doc comment on two lines.
OCAML = """(*---------------------------------------------------------------------------
   Copyright (c) 2011 The cmdliner programmers. All rights reserved.
   SPDX-License-Identifier: ISC
  ---------------------------------------------------------------------------*)

(** Command line arguments as terms.

    A term is evaluated against the command line. *)

type 'a conv
"""


def _starts(name: str, text: str) -> list[int]:
    lines = text.splitlines()
    return [p.start for p in top_level_pieces(lines, comment_syntax(name))]


@pytest.mark.parametrize(
    ("name", "text", "starts"),
    [("lua/oil/util.lua", LUA, [1, 3, 12, 21]), ("src/Chunk.hs", HASKELL, [1, 3, 7])],
    ids=["lua", "haskell"],
)
def test_lua_and_haskell_doc_comments_stay_with_their_declaration(
    name: str, text: str, starts: list[int]
) -> None:
    assert _starts(name, text) == starts


def test_an_ocaml_comment_over_several_lines_stays_with_what_follows() -> None:
    # a line of the comment (``A term is evaluated``) at the margin after a blank line
    # opens no block either
    assert _starts("src/cmdliner_arg.mli", OCAML) == [1]


def test_the_lua_doc_comment_is_in_its_functions_entry() -> None:
    doc = "".join(f"---@param option{n} string what option {n} sets\n" for n in range(8))
    body = "".join(f"  ret = ret:gsub('pattern {n}', 'replacement {n}')\n" for n in range(8))
    text = LUA.replace("---@return string\n", doc, 1).replace("  return ret\n", body, 1)
    drafts = file_drafts("lua/oil/util.lua", text, "Lua")  # both parts over a quarter chunk
    (entry,) = [d for d in drafts if "fnameescape" in d.content]
    assert "Escapes a filename for use in :edit" in entry.content


@pytest.mark.parametrize(
    ("name", "comments", "not_comments"),
    [
        ("init.lua", ["-- x", "--[[ x"], ["# x", "// x"]),
        ("Chunk.hs", ["-- | x", "{- x"], ["# x"]),
        ("cmdliner.ml", ["(** x"], ["# x", "// x", "-- x"]),
        ("mix.ex", ["# x"], ["// x", '" x']),
        ("plugin.vim", ['" x'], ["# x"]),
        ("core.clj", [";; x"], ["# x"]),
        ("app.erl", ["%% x"], ["# x"]),
        ("main.scala", ["// x", "/** x"], ['" x', "# x"]),
        ("setup.py", ["# x"], ['" x', "' x", "-- x"]),
        ("main.c", ["// x", "/* x"], ["#include <stdio.h>", "; x"]),  # a preprocessor line
    ],
)
def test_each_languages_comment_markers_come_from_its_lexer(
    name: str, comments: list[str], not_comments: list[str]
) -> None:
    syntax = comment_syntax(name)
    assert [c for c in comments if not syntax.is_comment(c)] == []
    assert [c for c in not_comments if syntax.is_comment(c)] == []


def test_a_c_style_comments_inner_lines_count_as_comment() -> None:
    text = "/**\n * A shopping cart.\n *\n * Kept in the session.\n */\n\nclass Cart {\n}\n"
    assert _starts("Cart.dart", text) == [1]


def test_a_file_no_lexer_claims_keeps_the_shared_markers() -> None:
    assert comment_syntax("rules.zzqx") is FALLBACK
    text = "# the rules\n\nrule one\n  a\n\n// next\n\nrule two\n  b\n"
    assert _starts("rules.zzqx", text) == [1, 6]


def test_pygments_lexers_are_imported_on_the_first_file_cut_not_with_the_analyzer() -> None:
    code = (
        "import json, sys\n"
        "from engine.analyzer.definitions import file_drafts\n"
        "before = 'pygments.lexers' in sys.modules\n"
        "file_drafts('a.lua', '-- x\\n\\nlocal function f()\\nend\\n', 'Lua')\n"
        "print(json.dumps([before, 'pygments.lexers' in sys.modules]))"
    )
    done = fresh_python(code)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [False, True]


def test_a_lexer_without_comments_leaves_the_shared_markers() -> None:
    # Pygments' plain-text lexer claims ``*.txt`` and lexes every probe as text
    assert comment_syntax("notes.txt") is FALLBACK


def test_a_lexer_that_fails_on_a_probe_or_is_missing_gives_no_markers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pygments.lexer import Lexer

    class Broken(Lexer):
        def get_tokens_unprocessed(self, text: str) -> Iterator[tuple[int, Any, str]]:
            raise ValueError("cannot lex")
            yield (0, None, text)

    monkeypatch.setattr("pygments.lexers.find_lexer_class", lambda name: Broken)
    assert comment_syntax_module._lexer_syntax.__wrapped__("Broken") == CommentSyntax(())
    monkeypatch.setattr("pygments.lexers.find_lexer_class", lambda name: None)
    assert comment_syntax_module._lexer_syntax.__wrapped__("Gone") == CommentSyntax(())
