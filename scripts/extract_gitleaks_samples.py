"""Extract gitleaks' own true- and false-positive samples into a test corpus.

    python scripts/extract_gitleaks_samples.py GIT_DIR [--out tests/data/gitleaks]

gitleaks (MIT) validates each rule of its default configuration, when it generates it,
against samples written in ``cmd/generate/config/rules/*.go``: ``utils.Validate(r, tps,
fps)``. This reads those Go files at the commit the vendored rules came from
(``engine/guards/rules/UPSTREAM``) and evaluates the small part of Go the samples are
written in: string literals, ``+``, ``[]string{…}``, ``map[string]string{…}``,
``append``, local variables, and the helpers ``utils.GenerateSampleSecrets``,
``utils.GenerateSampleSecret``, ``secrets.NewSecret`` (a random string matching an
expression: generated here with a fixed seed, as gitleaks generates one at random),
``utils.AlphaNumeric``/``Hex``/``Numeric``/… and ``fmt.Sprintf("%s")``. A statement in
any other form (a loop, another helper) is not evaluated: the samples it would add are
left out, and each rule records how many of its statements were (``unevaluated``).

Writes ``samples.json`` (rule id → ``tps``, ``fps``, ``unevaluated``, and ``paths`` when
the rule is validated with file paths) and ``LICENSE`` (gitleaks' MIT licence) to OUT.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import string
import subprocess
import tomllib
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
RULES_DIR = "cmd/generate/config/rules"
SEED = 35


class Unsupported(Exception):
    """A Go form this evaluator does not know."""


# -- Go tokens ------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"(?P<ws>[ \t\r]+)|(?P<nl>\n)|(?P<comment>//[^\n]*|/\*.*?\*/)"
    r"|(?P<raw>`[^`]*`)|(?P<str>\"(?:\\.|[^\"\\\n])*\")|(?P<rune>'(?:\\.|[^'\\\n])+')"
    r"|(?P<num>[0-9][0-9_.xXa-fA-F]*)|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>\.\.\.|:=|\+=|==|!=|&&|\|\||<-|[-+*/%&|^<>=!(){}\[\],;:.])",
    re.DOTALL,
)


def _go_string(literal: str) -> str:
    if literal.startswith("`"):
        return literal[1:-1].replace("\r", "")
    body = literal[1:-1]
    out = body.encode("latin-1", "backslashreplace").decode("unicode_escape")
    return out.encode("latin-1", "ignore").decode("utf-8", "replace") if out.isascii() else out


def tokens(source: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(source):
        m = _TOKEN.match(source, pos)
        if not m:
            raise Unsupported(f"cannot tokenize at {source[pos : pos + 20]!r}")
        pos = m.end()
        kind = m.lastgroup or ""
        if kind in ("ws", "comment"):
            if kind == "comment" and "\n" in m.group():
                out.append(("nl", "\n"))
            continue
        if kind in ("raw", "str"):
            out.append(("str", _go_string(m.group())))
        else:
            out.append((kind, m.group()))
    return out


# -- random strings matching an expression (secrets.NewSecret) -----------------------------

_ALNUM = string.ascii_letters + string.digits


def _chars(items: list[Any]) -> str:
    from re import _constants as c  # type: ignore[attr-defined]

    pool, negate = [], False
    for op, arg in items:
        if op is c.NEGATE:
            negate = True
        elif op is c.LITERAL:
            pool.append(chr(arg))
        elif op is c.RANGE:
            pool += [chr(x) for x in range(arg[0], arg[1] + 1)]
        elif op is c.CATEGORY:
            pool += {
                c.CATEGORY_DIGIT: string.digits,
                c.CATEGORY_WORD: _ALNUM + "_",
                c.CATEGORY_SPACE: " ",
            }.get(arg, "")
        else:
            raise Unsupported(f"class item {op}")
    if negate:
        return "".join(ch for ch in _ALNUM if ch not in pool)
    return "".join(pool)


def _generate(parsed: Any, rng: random.Random) -> str:
    from re import _constants as c

    out = []
    for op, arg in parsed:
        if op is c.LITERAL:
            out.append(chr(arg))
        elif op is c.NOT_LITERAL:
            out.append(rng.choice([ch for ch in _ALNUM if ord(ch) != arg]))
        elif op is c.ANY:
            out.append(rng.choice(_ALNUM))
        elif op is c.IN:
            out.append(rng.choice(_chars(arg)))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            low, high, sub = arg
            high = low + 8 if high is c.MAXREPEAT else high
            out += [_generate(sub, rng) for _ in range(rng.randint(low, high))]
        elif op is c.SUBPATTERN:
            out.append(_generate(arg[-1], rng))
        elif op is c.BRANCH:
            out.append(_generate(rng.choice(arg[1]), rng))
        elif op is c.AT:
            continue
        elif op is c.CATEGORY:
            out.append(rng.choice(_chars([(op, arg)])))
        else:
            raise Unsupported(f"expression op {op}")
    return "".join(out)


def new_secret(pattern: str, rng: random.Random) -> str:
    from re import _parser  # type: ignore[attr-defined]

    try:
        parsed = _parser.parse(pattern)
    except re.error as exc:
        raise Unsupported(f"expression {pattern!r}: {exc}") from exc
    return _generate(parsed, rng)


# -- gitleaks' sample helpers (cmd/generate/config/utils) -----------------------------------

_SAMPLE_TEMPLATES = (
    '{i}Token="{s}"',
    '{i}Token = "{s}"',
    "{i}Token={s}",
    "{i}Token = {s}",
    '{\n    "{i}_token": "{s}"\n}',
    '{"config.ini": "{I}_TOKEN={s}\\nBACKUP_ENABLED=true"}',
    "<{i}Token>\n    {s}\n</{i}Token>",
    "{i}_token: {s}",
    "{i}_token: '{s}'",
    '{i}_token: "{s}"',
    'string {i}Token = "{s}";',
    'var {i}Token string = "{s}"',
    '{i}Token := "{s}"',
    "{i}Token := `{s}`",
    'String {i}Token = "{s}";',
    'var {i}Token = "{s}"',
    '${i}Token .= "{s}"',
    "{i}Token = '{s}'",
    '{i}Token = "{s}"',
    'System.setProperty("{I}_TOKEN", "{s}")',
    '  "{i}Token" => "{s}"',
    '{i}_TOKEN = "{s}"',
    '{i}_TOKEN := "{s}"',
    '{i}_TOKEN ::= "{s}"',
    '{i}_TOKEN :::= "{s}"',
    '{i}_TOKEN ?= "{s}"',
)
"""The templates of ``utils.GenerateSampleSecrets`` at the vendored commit."""

_PATTERN_HELPERS = {
    "Numeric": "[0-9]{%s}",
    "Hex": "[a-f0-9]{%s}",
    "AlphaNumeric": "[a-z0-9]{%s}",
    "AlphaNumericExtendedShort": "[a-z0-9_-]{%s}",
    "AlphaNumericExtended": "[a-z0-9=_\\-]{%s}",
    "AlphaNumericExtendedLong": "[a-z0-9\\/=_\\+\\-]{%s}",
}


class Evaluator:
    """Evaluates the expressions of one rule function's statements."""

    def __init__(self, toks: list[tuple[str, str]], env: dict[str, Any], ctx: Context):
        self.toks, self.pos, self.env, self.ctx = toks, 0, env, ctx

    def peek(self, ahead: int = 0) -> tuple[str, str]:
        n = self.pos + ahead
        return self.toks[n] if n < len(self.toks) else ("eof", "")

    def take(self, value: str | None = None) -> tuple[str, str]:
        tok = self.peek()
        if value is not None and tok[1] != value:
            raise Unsupported(f"expected {value!r}, got {tok[1]!r}")
        self.pos += 1
        return tok

    def skip_nl(self) -> None:
        while self.peek()[0] == "nl":
            self.pos += 1

    def expr(self) -> Any:
        value = self.unary()
        while self.peek()[1] == "+":
            self.take()
            self.skip_nl()
            right = self.unary()
            if not (isinstance(value, str) and isinstance(right, str)):
                raise Unsupported("+ on non-strings")
            value += right
        return value

    def unary(self) -> Any:
        kind, text = self.peek()
        if kind == "str":
            self.take()
            return text
        if text == "[":
            self.take("[")
            self.take("]")
            if self.take()[1] != "string":
                raise Unsupported("slice of a non-string type")
            return self.elements()
        if text == "map":
            self.take()
            for part in ("[", "string", "]", "string"):
                self.take(part)
            return dict(self.pairs())
        if text == "(":
            self.take()
            value = self.expr()
            self.take(")")
            return value
        if kind == "ident":
            name = self.take()[1]
            while self.peek()[1] == "." and self.peek(1)[0] == "ident":
                self.take()
                name += "." + self.take()[1]
            if self.peek()[1] == "(":
                return self.call(name)
            if name in self.env:
                return self.env[name]
            raise Unsupported(f"unknown name {name}")
        if kind == "num":
            self.take()
            return text
        raise Unsupported(f"unexpected {text!r}")

    def elements(self) -> list[str]:
        self.take("{")
        items: list[str] = []
        while True:
            self.skip_nl()
            if self.peek()[1] == "}":
                self.take()
                return items
            value = self.expr()
            if not isinstance(value, str):
                raise Unsupported("non-string element")
            items.append(value)
            self.skip_nl()
            if self.peek()[1] == ",":
                self.take()

    def pairs(self) -> list[tuple[str, str]]:
        self.take("{")
        items: list[tuple[str, str]] = []
        while True:
            self.skip_nl()
            if self.peek()[1] == "}":
                self.take()
                return items
            key = self.expr()
            self.take(":")
            self.skip_nl()
            value = self.expr()
            items.append((key, value))
            self.skip_nl()
            if self.peek()[1] == ",":
                self.take()

    def args(self) -> tuple[list[Any], bool]:
        self.take("(")
        values, spread = [], False
        while True:
            self.skip_nl()
            if self.peek()[1] == ")":
                self.take()
                return values, spread
            values.append(self.expr())
            self.skip_nl()
            if self.peek()[1] == "...":
                self.take()
                spread = True
            self.skip_nl()
            if self.peek()[1] == ",":
                self.take()

    def call(self, name: str) -> Any:
        args, spread = self.args()
        short = name.removeprefix("utils.")
        if name == "append":
            base = list(args[0])
            for extra in args[1:]:
                base += list(extra) if spread and extra is args[-1] else [extra]
            return base
        if name == "secrets.NewSecret":
            return new_secret(args[0], self.ctx.rng)
        if name == "newPlausibleSecret":
            return self.ctx.plausible(args[0])
        if short in _PATTERN_HELPERS and name.startswith("utils."):
            return _PATTERN_HELPERS[short] % args[0]
        if name == "utils.Hex8_4_4_4_12":
            return "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
        if name == "utils.GenerateSampleSecrets":
            ident, secret = args
            return [
                t.replace("{i}", ident).replace("{I}", ident.upper()).replace("{s}", secret)
                for t in _SAMPLE_TEMPLATES
            ]
        if name == "utils.GenerateSampleSecret":
            return f'{args[0]}_api_token = "{args[1]}"'
        if name == "strings.Repeat":
            return args[0] * int(args[1])
        if name == "fmt.Sprintf" and all(isinstance(a, str) for a in args):
            if re.search(r"%[^s%]", args[0]):
                raise Unsupported("Sprintf verb other than %s")
            return args[0].replace("%%", "\0") % tuple(args[1:])
        raise Unsupported(f"call {name}")


class Context:
    def __init__(self, stopwords: list[str]):
        self.rng = random.Random(SEED)
        self.stopwords = stopwords

    def plausible(self, pattern: str) -> str:
        """generic.go's newPlausibleSecret: a digit, and no stop word."""
        while True:
            secret = new_secret(pattern, self.rng)
            lowered = secret.lower()
            if re.search("[1-9]", secret) and not any(w in lowered for w in self.stopwords):
                return secret


def _functions(toks: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """The bodies of the top-level ``func`` declarations."""
    bodies, n = [], 0
    while n < len(toks):
        if toks[n] == ("ident", "func"):
            while n < len(toks) and toks[n][1] != "{":
                n += 1
            depth, start = 0, n
            while n < len(toks):
                depth += {"{": 1, "}": -1}.get(toks[n][1], 0)
                n += 1
                if depth == 0:
                    break
            bodies.append(toks[start + 1 : n - 1])
        else:
            n += 1
    return bodies


def _statements(body: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """Top-level statements of a body (nested blocks stay inside their statement)."""
    out, current, depth = [], [], 0
    for tok in body:
        if tok[1] in "({[" and tok[0] == "op":
            depth += 1
        elif tok[1] in ")}]" and tok[0] == "op":
            depth -= 1
        if depth == 0 and (tok[0] == "nl" or tok[1] == ";"):
            if current:
                out.append(current)
            current = []
            continue
        current.append(tok)
    if current:
        out.append(current)
    return out


def _rule_id(body: list[tuple[str, str]]) -> str | None:
    for n in range(len(body) - 2):
        if body[n][1] == "RuleID" and body[n + 1][1] in (":", "=") and body[n + 2][0] == "str":
            return body[n + 2][1]
    return None


def extract(source: str, ctx: Context) -> dict[str, dict[str, Any]]:
    """Rule id → its samples, for every rule function of one Go file."""
    found: dict[str, dict[str, Any]] = {}
    for body in _functions(tokens(source)):
        rule_id = _rule_id(body)
        if rule_id is None:
            continue
        env: dict[str, Any] = {"r": None, "nil": None}
        unevaluated = 0
        record: dict[str, Any] | None = None
        for stmt in _statements(body):
            words = [t[1] for t in stmt]
            if words[:1] == ["return"] and any(w.startswith("Validate") for w in words[:4]):
                ev = Evaluator(stmt, env, ctx)
                ev.pos = words.index("(")
                try:
                    args, _ = ev.args()
                except Unsupported:
                    unevaluated += 1
                    args = []
                tps, fps = (args[1], args[2]) if len(args) == 3 else ([], [])
                paths = isinstance(tps, dict) or isinstance(fps, dict)
                record = {
                    "tps": list((tps or {}).values()) if isinstance(tps, dict) else tps or [],
                    "fps": list((fps or {}).values()) if isinstance(fps, dict) else fps or [],
                }
                if paths:
                    record["paths"] = {
                        "tps": list((tps or {}).keys()) if isinstance(tps, dict) else [],
                        "fps": list((fps or {}).keys()) if isinstance(fps, dict) else [],
                    }
                continue
            name_at = 1 if words[:1] == ["var"] else 0
            if len(words) > name_at + 2 and stmt[name_at][0] == "ident":
                op_at = next((n for n, w in enumerate(words) if w in (":=", "=")), None)
                if op_at is None or op_at > name_at + 2:
                    continue
                name = words[name_at]
                if name in ("r", "_") or words[name_at + 1] == ".":
                    continue
                ev = Evaluator(stmt[op_at + 1 :], env, ctx)
                try:
                    env[name] = ev.expr()
                    if ev.pos != len(ev.toks):
                        raise Unsupported("trailing tokens")
                except Unsupported:
                    env[name] = None
                    if name in ("tps", "fps") or "ositive" in name:
                        unevaluated += 1
        if record is not None:
            record["unevaluated"] = unevaluated
            found[rule_id] = record
    return found


def _git(git_dir: str, *args: str) -> str:
    cmd = ["git", f"--git-dir={git_dir}", *args]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("git_dir", help="gitleaks repository (its .git folder or a bare mirror)")
    parser.add_argument("--out", type=Path, default=REPO / "tests" / "data" / "gitleaks")
    args = parser.parse_args(argv)
    git_dir = args.git_dir
    if (Path(git_dir) / ".git").is_dir():
        git_dir = str(Path(git_dir) / ".git")
    upstream = (REPO / "engine" / "guards" / "rules" / "UPSTREAM").read_text(encoding="utf-8")
    commit = re.search(r"commit: ([0-9a-f]{40})", upstream)
    if not commit:
        raise SystemExit("engine/guards/rules/UPSTREAM names no commit")
    rev = commit.group(1)
    config = tomllib.loads((REPO / "engine" / "guards" / "rules" / "gitleaks.toml").read_text())
    generic = next(r for r in config["rules"] if r["id"] == "generic-api-key")
    stopwords = [w for a in generic.get("allowlists", []) for w in a.get("stopwords", [])]
    ctx = Context(stopwords)
    files = _git(git_dir, "ls-tree", "--name-only", f"{rev}:{RULES_DIR}").split()
    rules: dict[str, dict[str, Any]] = {}
    for name in sorted(f for f in files if f.endswith(".go") and not f.endswith("_test.go")):
        source = _git(git_dir, "show", f"{rev}:{RULES_DIR}/{name}")
        try:
            for rule_id, record in extract(source, ctx).items():
                rules[rule_id] = {"file": name, **record}
        except Unsupported as exc:
            print(f"  {name}: not read ({exc})")
    shipped = {r["id"] for r in config["rules"]}
    rules = {k: v for k, v in sorted(rules.items()) if k in shipped}
    args.out.mkdir(parents=True, exist_ok=True)
    data = {
        "source": f"https://github.com/gitleaks/gitleaks {RULES_DIR}/*.go",
        "commit": rev,
        "licence": "MIT, Copyright (c) 2019 Zachary Rice (LICENSE beside this file)",
        "note": "fake credentials written or generated as gitleaks' test vectors; none is real",
        "seed": SEED,
        "rules": rules,
    }
    out = args.out / "samples.json"
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (args.out / "LICENSE").write_text(_git(git_dir, "show", f"{rev}:LICENSE"), encoding="utf-8")
    tps = sum(len(r["tps"]) for r in rules.values())
    fps = sum(len(r["fps"]) for r in rules.values())
    missing = sorted(shipped - set(rules))
    partial = sum(1 for r in rules.values() if r["unevaluated"])
    print(
        f"{out}: {len(rules)} of {len(shipped)} rules, {tps} true and {fps} false positives; "
        f"{partial} rules with statements not evaluated; no samples for {len(missing)}: "
        + ", ".join(missing)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
