"""Text from a memory made safe to show on a terminal, and JSON made safe to print.

An entry's content, title, path or keywords may hold anything a file or an agent put there,
escape sequences included: ``\\x1b]0;title\\x07`` retitles the terminal, ``\\x1b[2J`` clears
it, an OSC 8 sequence hides a link behind innocent text, a right-to-left override reorders
what the reader sees. Every face passes such text through :func:`printable` (or
:func:`printable_line`) before it reaches a terminal, so that the sequences are shown, inert,
instead of obeyed:

* C0 controls other than tab and newline become their Unicode *control pictures*
  (``\\x1b`` → ``␛``, ``\\x07`` → ``␇``, a lone ``\\r`` → ``␍``), DEL becomes ``␡``;
  a ``\\r\\n`` line end is a plain newline;
* C1 controls (U+0080-U+009F, among them the one-byte CSI ``\\x9b``), the bidirectional
  overrides and isolates (U+202A-U+202E, U+2066-U+2069) and lone surrogates (which no
  terminal encoding can carry) become an escape written out: ``\\x9b``, ``\\u202e``,
  ``\\udcff``.

Text without any of these is returned unchanged (the same object). The machine formats keep
the data exact instead: :func:`json_text` escapes the same characters inside JSON strings,
where a parser turns them back into what was stored.
"""

from __future__ import annotations

import re

_BIDI = (*range(0x202A, 0x202F), *range(0x2066, 0x206A))

_VISIBLE: dict[int, str] = {code: chr(0x2400 + code) for code in range(0x20) if code not in (9, 10)}
_VISIBLE[0x7F] = "\u2421"
_VISIBLE.update({code: f"\\x{code:02x}" for code in range(0x80, 0xA0)})
_VISIBLE.update({code: f"\\u{code:04x}" for code in _BIDI})
_VISIBLE.update({code: f"\\u{code:04x}" for code in range(0xD800, 0xE000)})

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_WHITESPACE = re.compile(r"\s+")


def printable(text: str) -> str:
    """``text`` with every control character and escape sequence made visible and inert.

    Newlines and tabs are kept (``\\r\\n`` becomes ``\\n``); see the module docstring for
    what each other character becomes.
    """
    if _UNSAFE.search(text) is None:
        return text
    return text.replace("\r\n", "\n").translate(_VISIBLE)


def printable_line(text: str) -> str:
    """``text`` on one line: whitespace runs as one space, then :func:`printable`."""
    return printable(_WHITESPACE.sub(" ", text).strip())


def json_text(dumped: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with the characters a
    terminal would obey, or could not encode, written as ``\\uXXXX`` escapes.

    ``json.dumps`` already escapes C0 controls; this adds DEL, C1 controls, bidirectional
    overrides and lone surrogates. They can occur only inside JSON strings, where the escape
    parses back to the same character, so the data round-trips exactly.
    """
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", dumped)
