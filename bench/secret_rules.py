"""Every secret rule is linear-time: each runs over 1 MB adversarial inputs.

    python -m bench.secret_rules [--mb 1] [--markdown DIR] [--chunks]

Python's ``re`` backtracks, so a rule written carelessly can take quadratic (or worse)
time on text an attacker or an unlucky file provides. The inputs are long runs of what the
rules look for without ever completing a match: header after header of a private key,
token prefixes back to back, a key name followed by an endless value. Prints the slowest
input for each rule; the test suite runs the same inputs with a bound. The upstream rules
(gitleaks', on RE2) run over the same inputs, each on its own (without the keyword
prefilter that would skip most of them), and then the whole guard.

Since issue 48 the rules also include Nosey Parker's (RE2, ``np:<id>``, each run on its
own without the set prefilter) and the context rules (RE2, ``context:<kind> #n``).

Then the whole guard (:func:`find_secrets`, every rule with its prefilter) over ordinary
markdown: the Argo CD docs of the evaluation data by default, whole files and the chunks
indexing cuts them into, as milliseconds per MB (median of five passes), and how many
chunks it touched (false positives). Times are CPU seconds of this process
(``time.process_time``), so that other work on the machine does not count.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

from engine.guards.privacy import SECRET_PATTERNS, find_secrets

try:
    from engine.guards.ruleset import default_ruleset
except ImportError:  # measuring a version from before the upstream rules (issue 35)
    default_ruleset = None  # type: ignore[assignment]
from engine.markdown.chunking import chunk_markdown

ARGO = Path(__file__).resolve().parents[2] / "shared" / "eval" / "markdown"

ROUND_3_PIECES = (
    # Round 3's forms (session 27): calls, headers named for a key, commands that set a
    # named value, redis' AUTH, pw and a key in a sentence (its linear-time test runs them).
    "define('password', ",
    "('a', 'password', ",
    "auth=('a', ",
    "HTTPBasicAuth('a', ",
    "Credentials.basic(",
    "a.auth(",
    "x-a-key: ",
    "A-B-Key: ",
    "config set ",
    "set -x password ",
    "set password ",
    "--name password ",
    "--name password --value ",
    "a:1> AUTH ",
    "redis-cli AUTH ",
    "pw ",
    "the key is a1!",
    "ENV['password'] = ",
)
ROUND_32_PIECES = (
    # Session 32's forms: an assignment quoted whole, calls given one literal, a YAML
    # tag, sentences in other languages, lists of codes and words, Discord's and FCM's.
    '"A_TOKEN=',
    "'password=",
    '"password=a',
    "--oauth2-bearer ",
    "bearer_auth(",
    'a.token("a',
    "password: !a ",
    "mot de passe ",
    "das Passwort ist ",
    "Passwort für a",
    "hasło to ",
    "password è ",
    "recovery codes ",
    "recovery codes: 1234-5678 ",
    "1a2b-3c4d ",
    "seed phrase: ",
    "seed phrase: abcd ",
    "abcd ",
    "1. abcd\n",
    "discord.com/api/webhooks/",
    "discord.com/api/webhooks/123456789012345678/",
    "AAAA",
    "AAAAaaaaaaa:APA91b",
)
ROUND_33_PIECES = (
    # Session 33's forms: a typed declaration, a string made of a literal, a header as a
    # name and a value field, a Set-Cookie value alone, a signed value, HTTPie's and
    # SNMP's credentials, sentences in Russian, Chinese and Japanese.
    "a: &str = ",
    "password: a = String::from(",
    "password string = ",
    '"name": "Authorization", "value": ',
    '"Cookie", "value": ',
    "a=b; path=/",
    "eyJaaaaaa.aaaaaa.",
    "http -a a:",
    "snmp-server community ",
    "snmpwalk -c ",
    "login with a/",
    "пароль от a: ",
    "密码是 ",
    "パスワードは ",
    "7z a -p",
    "lftp -u a,",
    "stats auth a:",
    "user a insecure-password ",
    ': PSK "',
    "md5",
    "LS0tLS1CRUdJTi",
)
PIECES = (
    "A",
    "a",
    "-",
    "=",
    " ",
    "\n",
    "a-",
    "sk-",
    "sk-ant-",
    "eyJ",
    "eyJa.",
    "xoxb-",
    "AIza",
    "npm_",
    "ghp_",
    "glpat-",
    "sk_live_",
    "AKIA",
    "a://",
    "a://b:",
    "a://b:c",
    "password",
    "password = '",
    "PASSWORD=",
    "PASSWORD: ",
    "aws_secret_access_key = ",
    "AWS Secret Access Key [",
    "Authorization: Bearer ",
    "AccountKey=",
    "https://hooks.slack.com/services/",
    "-----BEGIN RSA PRIVATE KEY-----\n",
    "-----BEGIN RSA PRIVATE KEY-----\\n",
    "-----BEGIN RSA PRIVATE KEY-----\n" + "A" * 64 + "\n",
    "-----BEGIN RSA PRIVATE KEY-----\\n" + "A" * 64,
    "<private>",
    # The hand-written rules of issue 35 and the upstream rules' keywords.
    "Password=",
    ";Password=",
    "curl ",
    "curl -u a:",
    "machine a login b ",
    "machine a\n",
    '"auth": "',
    "a.password=",
    "api_key = ",
    "token: ",
    "secret",
    "-----BEGIN PRIVATE KEY-----",
    # The second source and the context rules (issue 48).
    "password ",
    "the password is ",
    "secret key is a",
    "a as the password",
    "requirepass a",
    "<password>",
    "<password>a",
    "-u a -p",
    "-u a -pa ",
    "--password ",
    "name: PASSWORD\n",
    "name: PASSWORD\nvalue: ",
    "Authorization: Digest a=",
    'Authorization: Digest a="b", ',
    "| Password |\n|---|\n",
    "| a |",
    "a:1:a:a:",
    "$2a$10$",
    "$argon2id$v=19$",
    "{SSHA}",
    "Private-Lines: 1\n",
    '"kty" "d": "',
    "MII",
    "MIIA",
    "**Password:** ",
    "key = ",
    # Statements, sentences and command lines that name a password (issue 48's forms).
    "CREATE USER a ",
    "CREATE USER a IDENTIFIED BY ",
    "IDENTIFIED BY '",
    "ALTER ROLE a WITH PASSWORD ",
    "SET PASSWORD FOR a",
    "use the password ",
    "set the password to ",
    "api key ",
    "requirepass ",
    "a is the password",
    "sshpass ",
    "sshpass -p ",
    "redis-cli -a ",
    "mysql -pa ",
    "echo a ",
    "echo 'a' | ",
    "--password-stdin <<< ",
    "net use ",
    "net use \\\\a\\b ",
    "net user a ",
    "/u:a /p:",
    "htpasswd -b a ",
    "smbclient -U a%",
    "sqlplus a/",
    "ConvertTo-SecureString ",
    "credentials a/",
    "CONNECT TO a USER a USING ",
    "the password for a:",
    # Round 2's forms (session 26): cookies, key/name fields, quoted .pgpass lines,
    # bordered and delimited tables, logging in as a user.
    "Cookie: ",
    "Cookie: sid=",
    "sessionid=a1; ",
    "-b ",
    '<a key="password">',
    'key="password" ',
    "'a:1:a:a:",
    "+---+\n",
    "| a |\n+---+\n",
    "user,password\n",
    "a,b\n",
    "a\t",
    "log in as a with ",
    "log in ",
    *ROUND_3_PIECES,
    *ROUND_32_PIECES,
    *ROUND_33_PIECES,
)


def adversarial(size: int) -> list[tuple[str, str]]:
    """(name, text of about ``size`` characters) for every piece, repeated; and each
    piece followed by a run of one character."""
    out = []
    for piece in PIECES:
        out.append((f"{piece!r} repeated", piece * (size // len(piece))))
        out.append((f"{piece!r} then A…", piece + "A" * size))
    return out


def rules() -> list[tuple[str, Any]]:
    """(name, compiled expression) of every rule: the hand-written ones (Python's ``re``),
    the upstream ones (RE2), named ``upstream:<id>``, and, where this version has them,
    Nosey Parker's (``np:<id>``) and the context rules (``context:<kind> #n``)."""
    own = [(f"{kind} #{n}", rx) for n, (kind, rx) in enumerate(SECRET_PATTERNS)]
    if default_ruleset is None:
        return own
    out = own + [(f"upstream:{r.rule_id}", r.regex) for r in default_ruleset().rules]
    try:
        from engine.guards.context import CONTEXT_RULES
        from engine.guards.noseyparker import default_noseyparker
    except ImportError:  # a version from before issue 48
        return out
    compiled = default_noseyparker()._rules
    out += [(f"np:{rule.rule_id}", rx) for rule, rx in compiled]
    return out + [(f"context:{kind} #{n}", rx) for n, (kind, rx, _) in enumerate(CONTEXT_RULES)]


def timings(size: int, only: str = "") -> dict[str, tuple[float, str]]:
    """Rule name → (slowest seconds, on which input); ``only`` keeps the names that start
    with it."""
    inputs = adversarial(size)
    slowest: dict[str, tuple[float, str]] = {}
    for name, rx in rules():
        if not name.startswith(only):
            continue
        for label, text in inputs:
            started = time.process_time()
            for _ in rx.finditer(text):
                pass
            spent = time.process_time() - started
            if spent > slowest.get(name, (0.0, ""))[0]:
                slowest[name] = (spent, label)
    return slowest


def guard_timings(size: int) -> tuple[float, str]:
    """The whole guard (:func:`find_secrets`: prefilter, upstream and own rules): the
    slowest adversarial input."""
    worst = (0.0, "")
    for label, text in adversarial(size):
        started = time.process_time()
        find_secrets(text)
        worst = max(worst, (time.process_time() - started, label))
    return worst


def markdown_cost(root: Path, passes: int = 5) -> dict[str, float]:
    """The whole guard over every markdown file under ``root``: ms per MB on whole files
    and on chunks (median of ``passes``), and the chunks touched."""
    files = [p for p in sorted(root.rglob("*")) if p.suffix in (".md", ".markdown")]
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in files]
    chunks = [c.content for t in texts for c in chunk_markdown(t, 2000, 15)]
    named = [
        (p.name, c.content)
        for p, t in zip(files, texts, strict=True)
        for c in chunk_markdown(t, 2000, 15)
    ]
    out: dict[str, float] = {"files": len(texts), "chunks": len(chunks)}
    for label, items in (("file", texts), ("chunk", chunks)):
        mb = sum(len(t.encode("utf-8")) for t in items) / 1_000_000
        runs = []
        for _ in range(passes):
            started = time.process_time()
            for text in items:
                find_secrets(text)
            runs.append(time.process_time() - started)
        out[f"{label}_ms_per_mb"] = statistics.median(runs) * 1000 / mb
        out[f"{label}_us_each"] = statistics.median(runs) * 1e6 / len(items)
    # Touched as indexing sees them: each chunk with its file's name.
    out["touched"] = sum(bool(find_secrets(c, path=name)) for name, c in named)
    return out


SOURCE_SUFFIXES = (
    *(".md", ".markdown", ".mdx", ".rst", ".txt", ".adoc"),
    *(".py", ".js", ".jsx", ".ts", ".tsx", ".go", ".rs", ".java", ".kt", ".c", ".cc", ".cpp", ".h"),
    *(".toml", ".yml", ".yaml", ".json", ".ini", ".cfg", ".conf", ".properties", ".xml", ".sh"),
)
"""The files of a repository ``--tree`` reads: docs, code and configuration."""


def touched_in(root: Path) -> tuple[int, int, list[tuple[str, list[str]]]]:
    """False positives on a repository's files (docs, code, config), cut into chunks as
    indexing cuts them: (chunks, chunks touched, (file, kinds) of each touched chunk)."""
    chunks, touched = 0, []
    for path in sorted(root.rglob("*")):
        if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for chunk in chunk_markdown(text, 2000, 15):
            chunks += 1
            hits = find_secrets(chunk.content, path=path.name)
            if hits:
                touched.append((str(path.relative_to(root)), [h.kind for h in hits]))
    return chunks, len(touched), touched


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--markdown", type=Path, default=ARGO, help="folder of markdown")
    parser.add_argument("--skip-adversarial", action="store_true")
    parser.add_argument("--tree", type=Path, action="append", default=[], help="a repository")
    parser.add_argument("--only", default="", help="rules whose name starts with this")
    parser.add_argument("--top", type=int, default=15, help="how many of the slowest to print")
    args = parser.parse_args(argv)
    size = int(args.mb * 1_000_000)
    if not args.skip_adversarial:
        slowest = sorted(timings(size, args.only).items(), key=lambda x: -x[1][0])
        for name, (spent, label) in slowest[: args.top]:
            print(f"{name:40} {spent * 1000:8.1f} ms  (slowest input: {label})")
        spent, label = guard_timings(size)
        print(f"{'whole guard (find_secrets)':40} {spent * 1000:8.1f} ms  (slowest input: {label})")
    for tree in args.tree:
        chunks, touched, where = touched_in(tree)
        print(f"{tree.name}: {touched} of {chunks} chunks touched ({touched / max(chunks, 1):.2%})")
        for file, kinds in where:
            print(f"    {file}: {', '.join(kinds)}")
    if args.markdown.is_dir():
        cost = markdown_cost(args.markdown)
        print(
            f"whole guard over {cost['files']:.0f} markdown files ({cost['chunks']:.0f} chunks):"
            f" {cost['file_ms_per_mb']:.1f} ms/MB on files, {cost['chunk_ms_per_mb']:.1f} ms/MB"
            f" on chunks ({cost['chunk_us_each']:.0f} us a chunk);"
            f" {cost['touched']:.0f} chunks touched"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
