"""Every performance or quality figure the README states is one bench/RESULTS.md records.

A figure is a number with a unit of measurement (s, ms, MiB/MB/GiB, …/s, ×, %), or a
list or range of numbers sharing one ("1.13 / 1.28 s", "2.18–2.34×", "83.6 → 40.6 ms"),
or a bare decimal under 1 with two or more places (nDCG, recall, cosine: "0.972").
Counts and sizes without such a unit ("10,000 characters", "limit 1–20", "455 files")
are not figures; settings that do carry a unit are listed in :data:`SETTINGS`, each with
the words around it, so that only that sentence is exempt. Code (fenced blocks and
inline) is left out, and line breaks read as spaces.

Each number of a figure must occur in RESULTS.md as a number of its own, on a line that
has the same unit (after a number, or in its table's header row), and not as a target
("≤ 1 s"); bare decimals must simply occur.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
RESULTS = REPO / "bench" / "RESULTS.md"

SETTINGS = {
    "debounced, 200 ms by default": "watch mode's debounce (--debounce MS)",
    "the 200 ms debounce included": "watch mode's debounce, part of the measured delay",
    "cannot get the lock in 120 s": "the write lock's timeout",
    "(15 % by default)": "chunk overlap",
}
"""README passages whose unit-bearing numbers are settings, not measurements."""

NUMBER = r"\d+(?:,\d{3})*(?:\.\d+)?"
SEPARATOR = r"\s*(?:–|-|/|→|to|and|or)\s*"
UNIT = r"ms|s|[KMG]iB|[kMG]B|[a-z]*/s|×|%"
FIGURE = re.compile(rf"(?<![\w.]){NUMBER}(?:{SEPARATOR}{NUMBER})*\s?(?:{UNIT})(?!\w)")
DECIMAL = re.compile(r"(?<![\w.])0\.\d{2,}(?![\d])")


def prose(text: str) -> str:
    """The text without fenced code blocks and inline code, blanks collapsed to one."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    text = re.sub(r"``.+?``|`[^`\n]*`", "", text)
    return re.sub(r"\s+", " ", text)


def settings_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    for passage in SETTINGS:
        spans += [(m.start(), m.end()) for m in re.finditer(re.escape(passage), text)]
    return spans


def figures(text: str) -> list[tuple[list[str], str]]:
    """(numbers, unit) of every figure in ``text``; unit "" for a bare decimal."""
    text = prose(text)
    exempt = settings_spans(text)
    found: list[tuple[list[str], str]] = []
    taken: list[tuple[int, int]] = []
    for match in FIGURE.finditer(text):
        if any(a <= match.start() and match.end() <= b for a, b in exempt):
            continue
        unit = re.search(rf"(?:{UNIT})$", match.group()).group()  # type: ignore[union-attr]
        unit = "/s" if unit.endswith("/s") else unit
        found.append((re.findall(NUMBER, match.group()), unit))
        taken.append(match.span())
    for match in DECIMAL.finditer(text):
        if not any(a <= match.start() < b for a, b in taken + exempt):
            found.append(([match.group()], ""))
    return found


def has_unit(line: str, unit: str) -> bool:
    if unit in ("×", "%", "/s"):
        return unit in line
    return re.search(rf"(?<![\w/]){re.escape(unit)}(?!\w)", line) is not None


def recorded(number: str, unit: str, results: str) -> bool:
    """Whether ``number`` occurs in ``results`` as a figure in ``unit``: followed by it
    (perhaps through a list or range: "0.37 s / 0.49 s", "2.18–2.34×"), in a table whose
    header names it, or, for numbers of two digits or more, on a line that has it
    ("keyword 58 ms (p90 72)"). A target ("≤ 1 s") is not a record."""
    token = re.compile(rf"(?<![\d.,])(?<!≤ )(?<!≤){re.escape(number)}(?!\d|[.,]\d)")
    if not unit:
        return token.search(results) is not None
    unit_pattern = r"[a-z]*/s" if unit == "/s" else re.escape(unit)
    followed = rf"(?:{SEPARATOR}{NUMBER})*\s?(?:{unit_pattern})(?!\w)"
    if re.search(token.pattern + followed, results):
        return True
    loose = len(re.sub(r"\D", "", number)) >= 2
    header = previous = ""
    for line in results.splitlines():
        if line.startswith("|") and not previous.startswith("|"):
            header = line
        previous = line
        if token.search(line) and (
            (line.startswith("|") and has_unit(header, unit)) or (loose and has_unit(line, unit))
        ):
            return True
    return False


def unrecorded(readme: str, results: str) -> list[str]:
    return [
        f"{' / '.join(numbers)} {unit}".strip()
        for numbers, unit in figures(readme)
        if not all(recorded(n, unit, results) for n in numbers)
    ]


def test_every_readme_figure_is_recorded_in_bench_results() -> None:
    readme = README.read_text(encoding="utf-8")
    missing = unrecorded(readme, RESULTS.read_text(encoding="utf-8"))
    assert not missing, (
        "README.md states figures that bench/RESULTS.md does not record (quote the "
        f"recorded figure, or record the run that measured it): {missing}"
    )


def test_the_readme_states_figures_and_its_settings_are_still_there() -> None:
    """The check has something to check, and no exemption outlives its sentence."""
    readme = README.read_text(encoding="utf-8")
    assert len(figures(readme)) >= 10
    for passage in SETTINGS:
        assert passage in prose(readme), f"stale exemption: {passage!r}"


def test_the_extraction() -> None:
    text = (
        "launch 1.13 / 1.28 s; int8 2.18–2.34× (fp32 1.15×); 43.0 entries/s; 254 MiB; "
        "hybrid 83.6 → 40.6 ms; recall@10 0.972, within 0.01; 10,000 characters; "
        "limit 1–20; 80×24 and 160×48; H1–H6; `0.25 s` in code; 10 % of the entries"
    )
    assert figures(text) == [
        (["1.13", "1.28"], "s"),
        (["2.18", "2.34"], "×"),
        (["1.15"], "×"),
        (["43.0"], "/s"),
        (["254"], "MiB"),
        (["83.6", "40.6"], "ms"),
        (["10"], "%"),
        (["0.972"], ""),
        (["0.01"], ""),
    ]
    results = "| mode | p50 ms |\n|---|---|\n| hybrid | 12.2 |\nlaunch 1.13 / 1.28 s\n"
    assert recorded("12.2", "ms", results)
    assert recorded("1.28", "s", results)
    assert not recorded("12.2", "s", results)  # a number under another unit
    assert not recorded("1.1", "s", results)  # part of a longer number
    assert not recorded("1", "s", "launch 1.13 s (target ≤ 1 s)")  # a target
    assert recorded("72", "ms", "keyword 58 ms (p90 72)")
    assert not recorded("1", "s", "0.64 s: 1 file processed")  # one digit: must be a figure
    assert recorded("0.49", "s", "edit 0.37 s / 0.49 s") and recorded("0.37", "s", "0.37 s / 1 s")
