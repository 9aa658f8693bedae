"""Write the README's configuration table from the settings' declarations
(``engine/core/settings.py``: name, environment variable, README line; the defaults of
``engine/core/config.py``), or, with ``--check``, say whether it is up to date.

    python scripts/config_table.py           # rewrite README.md's table
    python scripts/config_table.py --check   # exit 1 when it differs

``tests/engine/test_config_table.py`` fails when the README's table was edited by hand.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.config_file import with_config_table  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the table differs")
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md")
    args = parser.parse_args(argv)
    text = args.readme.read_text(encoding="utf-8")
    try:
        wanted = with_config_table(text)
    except ValueError as exc:
        print(f"{args.readme}: {exc}", file=sys.stderr)
        return 2
    if wanted == text:
        return 0
    if args.check:
        print(
            f"{args.readme}: the configuration table differs from the settings; run "
            "python scripts/config_table.py",
            file=sys.stderr,
        )
        return 1
    args.readme.write_text(wanted, encoding="utf-8")
    print(f"rewrote the configuration table of {args.readme}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
