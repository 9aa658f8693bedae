"""The gitleaks rules are compiled on first use: scanning a text compiles only the rules
its keywords select, and a rule RE2 refuses is still skipped and reported."""

from __future__ import annotations

from pathlib import Path

from engine.guards.ruleset import Ruleset, load_ruleset

CONFIG = """
[[rules]]
id = "acme-token"
regex = '''acme_[a-z0-9]{16}'''
keywords = ["acme_"]

[[rules]]
id = "lookahead"
regex = '''zeta(?=[0-9])'''
keywords = ["zeta"]

[[rules]]
id = "bad-allowlist"
regex = '''omega_[a-z]{8}'''
keywords = ["omega_"]
[[rules.allowlists]]
regexes = ['''(?<!x)omega''']

[[rules]]
id = "beta-key"
regex = '''beta_[A-Z]{12}'''
keywords = ["beta_"]
"""


def compiled(ruleset: Ruleset) -> set[str]:
    """The ids of the rules whose expression has been compiled so far."""
    return {r.rule_id for r in ruleset._rules if r.expression._compiled is not None}


def rules_file(tmp_path: Path) -> Path:
    path = tmp_path / "rules.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return path


def test_a_scan_compiles_only_the_rules_its_keywords_select(tmp_path: Path) -> None:
    ruleset = load_ruleset(rules_file(tmp_path))
    assert compiled(ruleset) == set()  # reading the rules compiles none
    found = ruleset.find("the key is acme_0123456789abcdef, keep it")
    assert [f.rule_id for f in found] == ["acme-token"]
    assert compiled(ruleset) == {"acme-token"}
    assert ruleset.find("nothing to see") == []
    assert compiled(ruleset) == {"acme-token"}


def test_a_rule_re2_refuses_is_skipped_when_first_needed_and_reported(tmp_path: Path) -> None:
    ruleset = load_ruleset(rules_file(tmp_path))
    text = "zeta9 omega_abcdefgh beta_ABCDEFGHIJKL"
    assert [f.rule_id for f in ruleset.find(text)] == ["beta-key"]
    assert {r.rule_id for r in ruleset.rules} == {"acme-token", "beta-key"}
    skipped = dict(ruleset.skipped)
    assert set(skipped) == {"lookahead", "bad-allowlist"}
    assert all(why.startswith("RE2 cannot compile it") for why in skipped.values())
