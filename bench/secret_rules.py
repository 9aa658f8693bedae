"""Every secret rule is linear-time: each runs over 1 MB adversarial inputs.

    python -m bench.secret_rules [--mb 1]

Python's ``re`` backtracks, so a rule written carelessly can take quadratic (or worse)
time on text an attacker or an unlucky file provides. The inputs are long runs of what the
rules look for without ever completing a match: header after header of a private key,
token prefixes back to back, a key name followed by an endless value. Prints the slowest
input for each rule; the test suite runs the same inputs with a bound.
"""

from __future__ import annotations

import argparse
import time

from engine.guards.privacy import SECRET_PATTERNS

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
)


def adversarial(size: int) -> list[tuple[str, str]]:
    """(name, text of about ``size`` characters) for every piece, repeated; and each
    piece followed by a run of one character."""
    out = []
    for piece in PIECES:
        out.append((f"{piece!r} repeated", piece * (size // len(piece))))
        out.append((f"{piece!r} then A…", piece + "A" * size))
    return out


def timings(size: int) -> dict[str, tuple[float, str]]:
    """Rule kind → (slowest seconds, on which input)."""
    inputs = adversarial(size)
    slowest: dict[str, tuple[float, str]] = {}
    for n, (kind, rx) in enumerate(SECRET_PATTERNS):
        name = f"{kind} #{n}"
        for label, text in inputs:
            started = time.perf_counter()
            for _ in rx.finditer(text):
                pass
            spent = time.perf_counter() - started
            if spent > slowest.get(name, (0.0, ""))[0]:
                slowest[name] = (spent, label)
    return slowest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=1.0)
    args = parser.parse_args(argv)
    size = int(args.mb * 1_000_000)
    for name, (spent, label) in sorted(timings(size).items(), key=lambda x: -x[1][0]):
        print(f"{name:28} {spent * 1000:8.1f} ms  (slowest input: {label})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
