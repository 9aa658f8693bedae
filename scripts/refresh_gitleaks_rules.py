"""Refresh the secret guard's rule set from a local mirror of gitleaks (MIT).

    python scripts/refresh_gitleaks_rules.py GIT_DIR [--commit REV]

GIT_DIR is a clone or a bare mirror of github.com/gitleaks/gitleaks (nothing is
downloaded here). Copies ``config/gitleaks.toml`` and ``LICENSE`` at REV (default HEAD)
into ``engine/guards/rules/``, records the commit in ``UPSTREAM``, and reports how many
rules the guard can compile on RE2 (those it cannot are skipped at run time, counted).
Then re-extract the test vectors: ``python scripts/extract_gitleaks_samples.py GIT_DIR``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[1] / "engine" / "guards" / "rules"


def _show(git_dir: str, rev: str, path: str) -> bytes:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{rev}:{path}"], check=True, capture_output=True
    ).stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("git_dir", help="gitleaks repository (its .git folder or a bare mirror)")
    parser.add_argument("--commit", default="HEAD")
    args = parser.parse_args(argv)
    git_dir = args.git_dir
    if (Path(git_dir) / ".git").is_dir():
        git_dir = str(Path(git_dir) / ".git")
    log = ["git", f"--git-dir={git_dir}", "log", "-1", "--format=%H %cs", args.commit]
    commit, date = subprocess.run(log, check=True, capture_output=True, text=True).stdout.split()
    RULES.mkdir(parents=True, exist_ok=True)
    (RULES / "gitleaks.toml").write_bytes(_show(git_dir, commit, "config/gitleaks.toml"))
    (RULES / "LICENSE").write_bytes(_show(git_dir, commit, "LICENSE"))
    (RULES / "UPSTREAM").write_text(
        "source: https://github.com/gitleaks/gitleaks (config/gitleaks.toml, LICENSE)\n"
        f"commit: {commit}\ndate: {date}\nlicence: MIT (LICENSE beside this file)\n",
        encoding="utf-8",
    )
    sys.path.insert(0, str(RULES.parents[2]))
    from engine.guards.ruleset import load_ruleset

    ruleset = load_ruleset(RULES / "gitleaks.toml")
    print(
        f"gitleaks {commit[:12]} ({date}): {len(ruleset.rules)} rules run on RE2, "
        f"{len(ruleset.skipped)} skipped"
    )
    for rule_id, reason in ruleset.skipped:
        print(f"  skipped {rule_id}: {reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
