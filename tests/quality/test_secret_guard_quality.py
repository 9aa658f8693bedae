"""The secret guard on real text and on hostile text (issue 14).

False positives: the project's own documentation and source, and the Argo CD docs of the
evaluation data when they are beside the checkout, cut into chunks as indexing cuts them
(each with its file's name, as indexing passes it); at most 0.3 % of chunks may be
touched (issue 35; measured: 12 of 4,286, 0.28 %, with gitleaks' rules, all but one
example credentials in the Argo CD docs; 5 of 4,278 with issue 14's rules; issue 48,
with Nosey Parker's and the context rules: 10 of 4,561, 0.22 %). Linear time: every
hand-written and context rule over 1 MB adversarial inputs (``bench.secret_rules``),
each well under a second on this machine.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bench.secret_rules import adversarial
from engine.guards.context import CONTEXT_RULES
from engine.guards.privacy import SECRET_PATTERNS, find_secrets
from engine.markdown.chunking import chunk_markdown

REPO = Path(__file__).resolve().parents[2]
ARGO = REPO.parent / "shared" / "eval" / "markdown"
RULE_BOUND_S = 5.0
"""Seconds for one rule on one 1 MB input: ~0.1 s measured; quadratic would be minutes."""


def _texts() -> list[Path]:
    roots = [REPO / "README.md", REPO / "docs", REPO / "engine", REPO / "app", ARGO]
    files: list[Path] = []
    for root in roots:
        if root.is_file():
            files.append(root)
        elif root.is_dir():
            files += [p for p in root.rglob("*") if p.suffix in (".md", ".markdown", ".py")]
    return files


def test_real_prose_and_code_are_left_alone() -> None:
    chunks = touched = 0
    for path in _texts():
        for chunk in chunk_markdown(path.read_text(encoding="utf-8", errors="replace"), 2000, 15):
            chunks += 1
            touched += bool(find_secrets(chunk.content, path=path.name))  # as indexing does
    assert chunks > 500
    print(f"\nsecret guard: {touched} of {chunks} chunks touched ({touched / chunks:.2%})")
    assert touched / chunks <= 0.003


def test_prose_about_secrets_is_kept() -> None:
    prose = (
        "Set your AWS secret key in the console, never in code. The password: see the vault. "
        "Use a Bearer token from the login endpoint. ghp_ prefixes GitHub tokens; AKIA starts "
        "access key ids. export API_KEY=$API_KEY reads it from the environment. The "
        "password is required; the password is stored in Vault; password: parts[2]."
    )
    assert find_secrets(prose) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "kind",
    sorted({kind for kind, _ in SECRET_PATTERNS} | {f"context:{k}" for k, _, _ in CONTEXT_RULES}),
)
def test_every_rule_is_linear_on_a_megabyte_of_adversarial_text(kind: str) -> None:
    rules = [rx for k, rx in SECRET_PATTERNS if k == kind]
    rules += [rx for k, rx, _ in CONTEXT_RULES if f"context:{k}" == kind]
    for label, text in adversarial(1_000_000):
        for rx in rules:
            started = time.perf_counter()
            for _ in rx.finditer(text):
                pass
            assert time.perf_counter() - started < RULE_BOUND_S, f"{kind} on {label}"
