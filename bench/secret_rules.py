"""Every secret rule is linear-time: each runs over 1 MB adversarial inputs.

    python -m bench.secret_rules [--mb 1] [--markdown DIR] [--chunks]

Python's ``re`` backtracks, so a rule written carelessly can take quadratic (or worse)
time on text an attacker or an unlucky file provides. The inputs are long runs of what the
rules look for without ever completing a match: header after header of a private key,
token prefixes back to back, a key name followed by an endless value. Prints the slowest
input for each rule; the test suite runs the same inputs with a bound.

Then the whole guard (:func:`find_secrets`, every rule with its prefilter) over ordinary
markdown: the Argo CD docs of the evaluation data by default, whole files and the chunks
indexing cuts them into, as milliseconds per MB (median of five passes), and how many
chunks it touched (false positives).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from engine.guards.privacy import SECRET_PATTERNS, find_secrets
from engine.markdown.chunking import chunk_markdown

ARGO = Path(__file__).resolve().parents[2] / "shared" / "eval" / "markdown"

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


def markdown_cost(root: Path, passes: int = 5) -> dict[str, float]:
    """The whole guard over every markdown file under ``root``: ms per MB on whole files
    and on chunks (median of ``passes``), and the chunks touched."""
    texts = [
        p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(root.rglob("*"))
        if p.suffix in (".md", ".markdown")
    ]
    chunks = [c.content for t in texts for c in chunk_markdown(t, 2000, 15)]
    out: dict[str, float] = {"files": len(texts), "chunks": len(chunks)}
    for label, items in (("file", texts), ("chunk", chunks)):
        mb = sum(len(t.encode("utf-8")) for t in items) / 1_000_000
        runs = []
        for _ in range(passes):
            started = time.perf_counter()
            for text in items:
                find_secrets(text)
            runs.append(time.perf_counter() - started)
        out[f"{label}_ms_per_mb"] = statistics.median(runs) * 1000 / mb
        out[f"{label}_us_each"] = statistics.median(runs) * 1e6 / len(items)
    out["touched"] = sum(bool(find_secrets(c)) for c in chunks)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--markdown", type=Path, default=ARGO, help="folder of markdown")
    parser.add_argument("--skip-adversarial", action="store_true")
    args = parser.parse_args(argv)
    size = int(args.mb * 1_000_000)
    if not args.skip_adversarial:
        for name, (spent, label) in sorted(timings(size).items(), key=lambda x: -x[1][0]):
            print(f"{name:28} {spent * 1000:8.1f} ms  (slowest input: {label})")
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
