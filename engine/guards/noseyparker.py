"""Nosey Parker's maintained rules, the guard's second upstream source, run on RE2.

The rule files ship verbatim in ``rules/noseyparker/`` (Apache-2.0, ``LICENSE`` and
``NOTICE`` there; the upstream commit in ``UPSTREAM``;
``scripts/refresh_noseyparker_rules.py`` refreshes them), with ``rules.json``, the
selected rules as JSON, which the refresh writes and the guard reads. The rules that run
are those of Nosey Parker's own ``default`` rule set (secrets, high precision) and of
``np.hashes`` (password hashes); its other rules find public identifiers and assets.

Nosey Parker writes its expressions in Rust's syntax, most in extended mode (``(?x)``:
blanks ignored, ``#`` and ``(?# … )`` comments). RE2 has no extended mode, so
:func:`to_re2` removes the blanks and comments first, as Rust's parser would; the
result is otherwise the same syntax (Rust's regex crate and RE2 share it). A rule RE2
still refuses is skipped and counted (:attr:`NoseyParker.skipped`), never silently.

A rule of Nosey Parker's ``fuzzy`` category (a keyword, then any value) or with several
groups (a user, a password, a host) finds what its examples want; the guard
(``find(text, checked=True)``) then drops a match where a group's value is a
:func:`.context_values.placeholder` (``$Password``, ``YOUR_KEY``, ``Bearer
invalid-token``, ``user:password@``, a version), as it drops gitleaks' stand-ins, and of
several groups keeps those that can be a secret (:func:`.context_values.plausible`; a
user, account or host name of words is not), else the last.
As Nosey Parker reports it, a finding is what the rule's groups capture (a user name and
its password, say): one finding per group, or the whole match for a rule without groups.
One RE2 set of every expression, run once over the text, says which rules can match at
all; only those then run (a text with no candidate costs one linear pass).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import re2

from engine.guards.context_values import placeholder, plausible, trim
from engine.guards.ruleset import Finding

RULES_DIR = Path(__file__).resolve().parent / "rules" / "noseyparker"
_QUIET = re2.Options()
_QUIET.log_errors = False  # a refusal is reported in ``skipped``, not on stderr
_SET_OPTIONS = re2.Options()
_SET_OPTIONS.log_errors = False
_SET_OPTIONS.max_mem = 64 << 20
"""The set's automaton gets 64 MB, not RE2's 8: with 173 expressions the smaller cache
is rebuilt over and over (141 → 73 ms per MB of markdown, measured)."""
RULESETS = ("default.yml", "np.hashes.yml")
INDEX = "rules.json"
"""The selected rules in JSON, written from the YAML by :func:`write_index`."""
_LISTS = ("examples", "negative_examples", "categories")
"""Nosey Parker's rule sets whose rules the guard runs."""


@dataclass(frozen=True, slots=True)
class NpRule:
    """One Nosey Parker rule: its expression in RE2's syntax and its own examples."""

    rule_id: str
    name: str
    pattern: str
    examples: tuple[str, ...]
    negative_examples: tuple[str, ...]
    fuzzy: bool = False
    """In Nosey Parker's ``fuzzy`` category (a keyword and any value): the guard drops a
    finding whose value is a :func:`.context_values.placeholder`."""


def _flags(pattern: str, n: int) -> tuple[str, int, bool] | None:
    """At ``(?`` with an ``x`` among its flags: (what to write instead, where to go on,
    whether extended mode is switched on for the rest); None for any other group."""
    end = n + 2
    while end < len(pattern) and (pattern[end].isalpha() or pattern[end] == "-"):
        end += 1
    flags = pattern[n + 2 : end]
    if "x" not in flags or end >= len(pattern) or pattern[end] not in ":)":
        return None
    kept = flags.replace("x", "").replace("--", "-").rstrip("-")
    whole = pattern[end] == ")"
    switched_on = whole and "-x" not in flags
    if whole and not kept:
        return "", end + 1, switched_on
    return f"(?{kept}", end, switched_on


def to_re2(pattern: str) -> str:
    """A Rust expression in RE2's syntax: extended mode's blanks and comments removed
    (outside and, as Rust ignores them there too, inside character classes), ``(?x)``
    dropped from its flag groups. Linear in the pattern's length."""
    out: list[str] = []
    n, size, in_class, extended = 0, len(pattern), False, False
    while n < size:
        c = pattern[n]
        if c == "\\" and n + 1 < size:
            nxt = pattern[n + 1]
            out.append(nxt if nxt in " #" else c + nxt)  # "\ " and "\#" are literals
            n += 2
        elif not in_class and pattern.startswith("(?#", n):
            end = pattern.find(")", n)
            n = size if end < 0 else end + 1
        elif not in_class and pattern.startswith("(?", n) and (found := _flags(pattern, n)):
            text, n, switched_on = found
            extended = extended or switched_on
            out.append(text)
        elif extended and c in " \t\r\n\f\v":
            n += 1
        elif extended and c == "#" and not in_class:
            end = pattern.find("\n", n)
            n = size if end < 0 else end + 1
        elif c == "[" and not in_class:
            in_class = True
            lead = 1 + pattern.startswith("^", n + 1)
            lead += pattern.startswith("]", n + lead)  # a leading "]" is a literal
            out.append(pattern[n : n + lead])
            n += lead
        else:
            in_class = in_class and c != "]"
            out.append(c)
            n += 1
    return "".join(out)


class NoseyParker:
    """The selected rules, compiled, with their set prefilter; :meth:`find` scans."""

    def __init__(self, rules: Iterable[NpRule]) -> None:
        self._rules: list[tuple[NpRule, Any]] = []
        self._skipped: list[tuple[str, str]] = []
        for rule in rules:
            try:
                self._rules.append((rule, re2.compile(rule.pattern, _QUIET)))
            except re2.error as exc:
                self._skipped.append((rule.rule_id, f"RE2 cannot compile it: {exc}"))
        self._set = re2.Set.SearchSet(_SET_OPTIONS)
        for _, compiled in self._rules:
            self._set.Add(compiled.pattern)
        self._set.Compile()

    @property
    def rules(self) -> tuple[NpRule, ...]:
        """The rules that run on RE2."""
        return tuple(rule for rule, _ in self._rules)

    @property
    def skipped(self) -> tuple[tuple[str, str], ...]:
        """(rule id, why) of every selected rule that cannot run."""
        return tuple(self._skipped)

    def only(self, rule_id: str) -> NoseyParker:
        """A set of this one rule (its own examples are tested with it alone)."""
        return NoseyParker(rule for rule, _ in self._rules if rule.rule_id == rule_id)

    def find(self, text: str, checked: bool = False) -> list[Finding]:
        """Every finding of every rule whose expression matches somewhere in ``text``;
        ``checked``: less the matches of fuzzy or many-group rules where a group's value
        is a placeholder."""
        found: list[Finding] = []
        for index in sorted(self._set.Match(text) or []):
            rule, compiled = self._rules[index]
            for m in compiled.finditer(text):
                spans = [m.span(g) for g in range(1, compiled.groups + 1) if m.group(g)]
                spans = spans or [m.span()]
                loose = checked and (rule.fuzzy or len(spans) > 1)
                if loose and any(placeholder(trim(text[a:b])) for a, b in spans):
                    continue
                if checked and len(spans) > 1:  # the secret, not the user, account or host
                    spans = [s for s in spans if plausible(trim(text[slice(*s)]))] or spans[-1:]
                found += [Finding(rule.rule_id, a, b, text[a:b], m.group(0)) for a, b in spans]
        return found


def _strings(items: Any) -> tuple[str, ...]:
    return tuple(str(item) for item in items or ())


def _load_yaml(path: Path) -> Any:
    """A YAML file, with libyaml's parser where PyYAML has it (ten times faster)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(path.read_text(encoding="utf-8"), Loader=loader)


def read_rule_files(folder: Path) -> dict[str, Any]:
    """What the guard needs of the vendored YAML (PyYAML): the ids :data:`RULESETS`
    select, and each rule's name, pattern, examples and categories."""
    selected: list[str] = []
    for name in RULESETS:
        for ruleset in _load_yaml(folder / name)["rulesets"]:
            selected += [str(i) for i in ruleset.get("include_rule_ids") or ()]
    specs: dict[str, dict[str, Any]] = {}
    for path in sorted((folder / "rules").glob("*.yml")):
        for spec in _load_yaml(path).get("rules") or ():
            specs[str(spec["id"])] = {
                "name": str(spec.get("name", spec["id"])),
                "pattern": str(spec["pattern"]),
                **{key: _strings(spec.get(key)) for key in _LISTS},
            }
    return {"selected": list(dict.fromkeys(selected)), "rules": specs}


def write_index(folder: Path) -> None:
    """:data:`INDEX` from the folder's YAML files (the refresh script calls it): the
    guard reads this JSON at run time, so that scanning a note never imports PyYAML."""
    text = json.dumps(read_rule_files(folder), indent=1, ensure_ascii=False, sort_keys=True)
    (folder / INDEX).write_text(text + "\n", encoding="utf-8")


def load_noseyparker(folder: Path = RULES_DIR) -> NoseyParker:
    """The selected rules, from the folder's :data:`INDEX`; a selected id no rule file
    defines is reported as skipped."""
    data = json.loads((folder / INDEX).read_text(encoding="utf-8"))
    specs: dict[str, dict[str, Any]] = data["rules"]
    rules = [
        NpRule(
            rule_id=rule_id,
            name=specs[rule_id]["name"],
            pattern=to_re2(specs[rule_id]["pattern"]),
            examples=tuple(specs[rule_id]["examples"]),
            negative_examples=tuple(specs[rule_id]["negative_examples"]),
            fuzzy="fuzzy" in specs[rule_id]["categories"],
        )
        for rule_id in data["selected"]
        if rule_id in specs
    ]
    found = NoseyParker(rules)
    found._skipped += [(i, "no rule file defines it") for i in data["selected"] if i not in specs]
    return found


@cache
def default_noseyparker() -> NoseyParker:
    """The shipped rules, read once per process."""
    return load_noseyparker()
