"""Refresh the secret guard's second rule source from a local mirror of Nosey Parker.

    python scripts/refresh_noseyparker_rules.py GIT_DIR [--commit REV]

GIT_DIR is a clone or a bare mirror of github.com/praetorian-inc/noseyparker (Apache-2.0;
nothing is downloaded here). Copies every rule file
(``crates/noseyparker/data/default/builtin/rules/*.yml``), the rule sets that say which
rules run (``rulesets/default.yml`` and ``rulesets/np.hashes.yml``), ``LICENSE`` and
``NOTICE`` at REV (default HEAD) into ``engine/guards/rules/noseyparker/``, records the
commit in ``UPSTREAM``, writes ``rules.json`` (the selected rules as JSON, which the guard
reads), and reports how many of the selected rules run on RE2 and, by name with the
reason, every one that does not (skipped at run time, counted).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

TARGET = Path(__file__).resolve().parents[1] / "engine" / "guards" / "rules" / "noseyparker"
BUILTIN = "crates/noseyparker/data/default/builtin"
RULESETS = ("default.yml", "np.hashes.yml")


def _git(git_dir: str, *args: str) -> bytes:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True
    ).stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("git_dir", help="Nosey Parker repository (its .git folder or a mirror)")
    parser.add_argument("--commit", default="HEAD")
    args = parser.parse_args(argv)
    git_dir = args.git_dir
    if (Path(git_dir) / ".git").is_dir():
        git_dir = str(Path(git_dir) / ".git")
    try:
        commit, date = _git(git_dir, "log", "-1", "--format=%H %cs", args.commit).decode().split()
    except subprocess.CalledProcessError as exc:
        print(
            f"not a Nosey Parker repository at {args.commit}: {git_dir}"
            f" ({exc.stderr.decode().strip()})",
            file=sys.stderr,
        )
        return 2
    names = _git(git_dir, "ls-tree", "--name-only", commit, f"{BUILTIN}/rules/").decode().split()
    for old in TARGET.glob("*.yml"):
        old.unlink()
    (TARGET / "rules").mkdir(parents=True, exist_ok=True)
    for old in (TARGET / "rules").glob("*.yml"):
        old.unlink()
    for name in names:
        if name.endswith(".yml"):
            data = _git(git_dir, "show", f"{commit}:{name}")
            (TARGET / "rules" / Path(name).name).write_bytes(data)
    for name in RULESETS:
        data = _git(git_dir, "show", f"{commit}:{BUILTIN}/rulesets/{name}")
        (TARGET / name).write_bytes(data)
    for name in ("LICENSE", "NOTICE"):
        (TARGET / name).write_bytes(_git(git_dir, "show", f"{commit}:{name}"))
    (TARGET / "UPSTREAM").write_text(
        f"source: https://github.com/praetorian-inc/noseyparker ({BUILTIN}/rules/*.yml,"
        f" rulesets/{', rulesets/'.join(RULESETS)}, LICENSE, NOTICE)\n"
        f"commit: {commit}\ndate: {date}\nlicence: Apache-2.0 (LICENSE and NOTICE beside this"
        " file)\n",
        encoding="utf-8",
    )
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from engine.guards.noseyparker import load_noseyparker, write_index

    write_index(TARGET)
    rules = load_noseyparker(TARGET)
    print(
        f"noseyparker {commit[:12]} ({date}): {len(rules.rules)} selected rules run on RE2, "
        f"{len(rules.skipped)} skipped"
    )
    for rule_id, reason in rules.skipped:
        print(f"  skipped {rule_id}: {reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
