"""gitleaks' maintained rule set, run on RE2 (linear time), as gitleaks runs it.

The rules ship verbatim in ``rules/gitleaks.toml`` (MIT, ``rules/LICENSE``; the upstream
commit in ``rules/UPSTREAM``; ``scripts/refresh_gitleaks_rules.py`` refreshes them).
What gitleaks does with a fragment of text, this does with a text, in the same order:

1. keywords as a prefilter: one RE2 set of every rule's keywords is run over the
   lower-cased text, and only the rules with a keyword present (or with none) run;
2. each rule's expression on RE2 (Go's syntax is RE2's), so no input makes it slower than
   linear; an expression RE2 refuses is skipped and counted (:attr:`Ruleset.skipped`);
3. the secret is the rule's ``secretGroup``, else its first non-empty group, else the
   match; it is dropped when its Shannon entropy is at most the rule's ``entropy``;
4. then the global allow-list and the rule's own (``regexes`` on the secret, the match or
   the line; ``stopwords`` in the secret; ``condition = "AND"`` needs all of them).

An expression is compiled on its first use, not when the rules are read: a run that
scans a few notes compiles the handful of rules their keywords select (about 3 of 221 for
a page of docs) instead of all of them (50 ms of a one-file index run); an expression RE2
refuses is then skipped as before. :attr:`Ruleset.rules` and :attr:`Ruleset.skipped`
compile every rule to answer.

Differences, because a note has no file and nothing here has a commit: a rule scoped to
a file ``path`` runs on a file's text only when the path matches, as in gitleaks, but on
every text that has no path (a snippet pasted from a ``.tf`` file into a note is still
that); a rule that is only a path (a ``.p12`` file) is skipped, and allow-lists of paths
or commits never apply. gitleaks' decoding of base64/hex segments is not done.
"""

from __future__ import annotations

import bisect
import math
import tomllib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import re2

RULES_FILE = Path(__file__).resolve().parent / "rules" / "gitleaks.toml"


@dataclass(frozen=True, slots=True)
class Finding:
    """One secret an upstream rule found: its id, and where the secret is (the secret
    group's span, so the key name around it stays readable)."""

    rule_id: str
    start: int
    end: int
    secret: str
    match: str


class _Lines:
    """The lines around a span of one text; newlines are found once, on first use (a
    search per finding would be quadratic on a text of many findings and no newline)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._breaks: list[int] | None = None

    def around(self, start: int, end: int) -> str:
        if self._breaks is None:
            self._breaks = [n for n, c in enumerate(self.text) if c == "\n"]
        first = bisect.bisect_left(self._breaks, start)
        last = bisect.bisect_left(self._breaks, end)
        begin = self._breaks[first - 1] + 1 if first else 0
        stop = self._breaks[last] if last < len(self._breaks) else len(self.text)
        return self.text[begin:stop]


@dataclass(frozen=True, slots=True)
class Allowlist:
    """A gitleaks allow-list, less what needs a file path or a commit (its expressions
    RE2 refuses match nothing)."""

    regex: Expression | None
    target: str
    stopwords: tuple[str, ...]
    all_of: bool
    unmatchable: bool
    """``condition = "AND"`` with a path or commit check: it can never hold here."""

    def allows(self, secret: str, match: str, lines: _Lines, start: int, size: int) -> bool:
        """Whether this list lets the finding through (``lines`` gives the match's lines
        for a ``line`` target)."""
        target = {"secret": secret, "match": match}.get(self.target) or secret
        if self.target == "line":
            target = lines.around(start, start + size)
        by_regex = self.regex is not None and bool(target) and bool(self.regex.search(target))
        lowered = secret.lower()
        by_word = bool(secret) and any(w in lowered for w in self.stopwords)
        if self.all_of:
            checks = ([by_regex] if self.regex is not None else []) + (
                [by_word] if self.stopwords else []
            )
            return not self.unmatchable and bool(checks) and all(checks)
        return by_regex or by_word


@dataclass(frozen=True, slots=True)
class Rule:
    """One upstream rule, compiled."""

    rule_id: str
    expression: Expression
    keywords: tuple[str, ...]
    entropy: float
    secret_group: int
    allowlists: tuple[Allowlist, ...]
    path: Expression | None = None
    """The files the rule is for (gitleaks' ``path``), or None for every text."""

    @property
    def regex(self) -> Any | None:
        """The compiled expression (None when RE2 refuses it or its path's or
        allow-lists' expressions: the rule is then skipped, as gitleaks' loader would
        refuse it)."""
        if self.refusal() is not None:
            return None
        return self.expression.compiled()

    def refusal(self) -> str | None:
        """Why the rule cannot run on RE2 (None when it can); compiles what it needs."""
        parts = [self.expression, self.path, *(a.regex for a in self.allowlists)]
        for part in parts:
            if part is not None and part.compiled() is None:
                return part.error
        return None


def shannon_entropy(text: str) -> float:
    """Bits per character, as gitleaks computes it."""
    if not text:
        return 0.0
    size = len(text)
    return -sum(n / size * math.log2(n / size) for n in Counter(text).values())


class Expression:
    """An RE2 expression compiled on first use (see the module's docstring)."""

    __slots__ = ("_compiled", "error", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._compiled: Any = None
        self.error: str | None = None
        """Why RE2 refused it, once it has been tried."""

    def compiled(self) -> Any | None:
        """The compiled expression; None when RE2 refuses it (:attr:`error` says why)."""
        if self._compiled is None and self.error is None:
            try:
                self._compiled = re2.compile(self.pattern)
            except re2.error as exc:
                self.error = f"RE2 cannot compile it: {exc}"
        return self._compiled

    def search(self, text: str) -> Any:
        """``search`` of the compiled expression (one RE2 refuses finds nothing)."""
        compiled = self.compiled()
        return None if compiled is None else compiled.search(text)


def _compile(pattern: str) -> Expression:
    return Expression(pattern)


def _allowlist(spec: dict[str, Any]) -> Allowlist:
    regexes = spec.get("regexes") or []
    regex = _compile("|".join(f"(?:{r})" for r in regexes)) if regexes else None
    all_of = str(spec.get("condition", "OR")).upper() == "AND"
    return Allowlist(
        regex=regex,
        target=spec.get("regexTarget", "secret"),
        stopwords=tuple(str(w).lower() for w in spec.get("stopwords") or ()),
        all_of=all_of,
        unmatchable=all_of and bool(spec.get("paths") or spec.get("commits")),
    )


class Ruleset:
    """Compiled rules with their keyword prefilter; :meth:`find` scans a text."""

    def __init__(
        self,
        rules: Sequence[Rule],
        skipped: Sequence[tuple[str, str]],
        global_allowlists: Sequence[Allowlist] = (),
    ):
        self._rules = tuple(rules)
        self._skipped = tuple(skipped)
        self.global_allowlists = tuple(global_allowlists)
        self._always = tuple(r for r in self._rules if not r.keywords)
        words = sorted({k for r in self._rules for k in r.keywords})
        self._by_word: list[list[Rule]] = [[] for _ in words]
        index = {w: n for n, w in enumerate(words)}
        for rule in self._rules:
            for word in rule.keywords:
                self._by_word[index[word]].append(rule)
        self._words = re2.Set.SearchSet()
        for word in words:
            self._words.Add(re2.escape(word))
        self._words.Compile()

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The rules RE2 compiles (compiling every one)."""
        return tuple(r for r in self._rules if r.refusal() is None)

    @property
    def skipped(self) -> tuple[tuple[str, str], ...]:
        """(rule id, why) of every rule that cannot run (compiling every one)."""
        refused = [(r.rule_id, r.refusal()) for r in self._rules]
        return self._skipped + tuple((i, why) for i, why in refused if why is not None)

    def candidates(self, text: str, path: str | None = None) -> list[Rule]:
        """The rules worth running on ``text``: a keyword of theirs is in it (any case),
        and, when the text is a file's, the rule is not for other files."""
        present = self._words.Match(text.lower()) or []
        chosen = {id(r): r for n in present for r in self._by_word[n]}
        chosen.update({id(r): r for r in self._always})
        return [
            r
            for r in self._rules
            if id(r) in chosen
            and r.regex is not None
            and (path is None or r.path is None or r.path.search(path))
        ]

    def find(self, text: str, path: str | None = None) -> list[Finding]:
        """Every finding of every candidate rule, in rule order. ``path``: the file the
        text comes from, when it comes from one (a rule scoped to other files is skipped
        there, as gitleaks skips it; without a path every rule runs)."""
        found: list[Finding] = []
        for rule in self.candidates(text, path):
            found += self._run(rule, text)
        return found

    def _run(self, rule: Rule, text: str) -> list[Finding]:
        out: list[Finding] = []
        lines = _Lines(text)
        regex = rule.regex
        if regex is None:
            return out
        for m in regex.finditer(text):
            whole = m.group(0)
            match = whole.strip("\n")
            start = m.start() + len(whole) - len(whole.lstrip("\n"))
            span = (start, start + len(match))
            if regex.groups:
                group = rule.secret_group or next(
                    (n for n in range(1, regex.groups + 1) if m.group(n)), 0
                )
                if group and m.group(group):
                    span = m.span(group)
            secret = text[span[0] : span[1]]
            if rule.entropy and shannon_entropy(secret) <= rule.entropy:
                continue
            allowlists = (*self.global_allowlists, *rule.allowlists)
            if any(a.allows(secret, match, lines, start, len(match)) for a in allowlists):
                continue
            out.append(Finding(rule.rule_id, span[0], span[1], secret, match))
        return out


def load_ruleset(path: Path = RULES_FILE) -> Ruleset:
    """Read a gitleaks configuration (its expressions are compiled on first use); a rule
    RE2 refuses (or that has no expression) is skipped, with the reason, never fatal."""
    config = tomllib.loads(path.read_text(encoding="utf-8"))
    rules: list[Rule] = []
    skipped: list[tuple[str, str]] = []
    for spec in config.get("rules", []):
        rule_id = str(spec.get("id", "?"))
        if not spec.get("regex"):
            skipped.append((rule_id, "no expression: it flags a file by its name only"))
            continue
        rules.append(
            Rule(
                rule_id=rule_id,
                expression=_compile(spec["regex"]),
                keywords=tuple(dict.fromkeys(str(k).lower() for k in spec.get("keywords") or ())),
                entropy=float(spec.get("entropy", 0.0)),
                secret_group=int(spec.get("secretGroup", 0)),
                allowlists=tuple(_allowlist(a) for a in spec.get("allowlists") or ()),
                path=_compile(spec["path"]) if spec.get("path") else None,
            )
        )
    globs = [config["allowlist"]] if config.get("allowlist") else []
    globs += config.get("allowlists") or []
    return Ruleset(rules, skipped, tuple(_allowlist(a) for a in globs))


@cache
def default_ruleset() -> Ruleset:
    """The shipped rule set, read once per process."""
    return load_ruleset()
