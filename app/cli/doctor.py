"""``memory-tui doctor``: the health of each part of the memory, repairing derived files."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path


def register(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add ``doctor`` to the CLI (see app.cli.parser)."""
    p = command(
        "doctor",
        "Check each part of the memory (one line each) and repair derived files "
        "(fts.sqlite, embeddings.sqlite, meta.json); exit 1 if a problem is left.",
    )
    p.add_argument(
        "--rebuild-store",
        action="store_true",
        help="if the vector store is missing or unreadable, move it aside and rebuild it "
        "from the keyword index (every entry is kept; vectors come from the cache or the model)",
    )
    p.add_argument(
        "--secrets",
        action="store_true",
        help="scan the stored entries (store and keyword index) for secrets kept by older "
        "versions; exit 1 if any is found",
    )
    p.add_argument(
        "--fix",
        action="store_true",
        help="with --secrets: redact them and rebuild every derived copy (keyword index, "
        "embedding cache, old store versions)",
    )
    p.add_argument("--json", action="store_true", help="print the checks as JSON")
    p.set_defaults(handler=doctor)
    p = command(
        "compact",
        "Merge the vector store's small fragments and drop old versions now (writes do it "
        "on their own once fragments pile up).",
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(handler=compact)


def compact(args: argparse.Namespace, root: Path) -> int:
    """Compact the store under the write lock; prints its size before and after."""
    from app.project import require_initialised
    from engine import Memory

    require_initialised(root)
    from app.progress import working

    with Memory.open(root) as memory, working("Compacting the vector store"):
        done = memory.compact()
    if args.json:
        sys.stdout.write(json.dumps(done, indent=2) + "\n")
    elif not done:
        sys.stdout.write("nothing to compact: the vector store is empty\n")
    else:
        sys.stdout.write(
            f"{done['rows']} entries: {done['fragments_before']} fragments → {done['fragments']}, "
            f"{done['versions_before']} versions → {done['versions']}, "
            f"{done['bytes_before'] / 1e6:.1f} MB → {done['bytes'] / 1e6:.1f} MB\n"
        )
    return 0


def secrets(args: argparse.Namespace, root: Path) -> int:
    """``doctor --secrets [--fix]``: one line per entry holding a likely secret (its id,
    kinds and fingerprints for the allow-list, never the secret); exit 1 if any is left."""
    from app.project import require_initialised
    from engine import Memory, fix_secrets, json_text, printable, scan_secrets

    require_initialised(root)
    with Memory.open(root) as memory:
        scan = fix_secrets(memory) if args.fix else scan_secrets(memory)
    if args.json:
        data = {
            "found": len({f.entry_id for f in scan.findings}),
            "fixed": scan.fixed,
            "by_kind": scan.by_kind,
            "findings": [
                {
                    "id": f.entry_id,
                    "where": f.where,
                    "kinds": list(f.kinds),
                    "fingerprints": list(f.fingerprints),
                }
                for f in scan.findings
            ],
        }
        sys.stdout.write(json_text(json.dumps(data, indent=2)) + "\n")
    else:
        for f in scan.findings:
            line = f"{f.entry_id}  {f.where:<13}  {', '.join(f.kinds)}  {' '.join(f.fingerprints)}"
            sys.stdout.write(printable(line) + "\n")
    entries = len({f.entry_id for f in scan.findings})
    if not entries:
        print("memory-tui doctor: no stored secret found", file=sys.stderr)
        return 0
    if args.fix:
        print(
            f"memory-tui doctor: redacted {scan.fixed} "
            f"{'entry' if scan.fixed == 1 else 'entries'}; derived copies rebuilt",
            file=sys.stderr,
        )
        return 0
    print(
        f"memory-tui doctor: {entries} entries hold likely secrets; run `memory-tui doctor "
        "--secrets --fix` to redact them, or add a false positive's fingerprint to "
        "secret_allowlist",
        file=sys.stderr,
    )
    return 1


def doctor(args: argparse.Namespace, root: Path) -> int:
    """Run the checks; stdout carries one line per part, the exit code says if it is sound."""
    from engine import default_embedder, diagnose, json_text, printable

    if args.secrets:
        return secrets(args, root)
    if args.fix:
        print("memory-tui: error: --fix goes with --secrets", file=sys.stderr)
        return 2

    report = diagnose(root, default_embedder(), rebuild_store_if_needed=args.rebuild_store)
    checks = [
        {"part": c.part, "status": c.status.value, "detail": c.detail, "fix": c.fix}
        for c in report.checks
    ] + _http_server_checks(root)
    problems = sum(c["status"] == "problem" for c in checks)
    if args.json:
        data = {"healthy": not problems, "checks": checks}
        sys.stdout.write(json_text(json.dumps(data, indent=2, ensure_ascii=False)) + "\n")
    else:
        for check in checks:
            sys.stdout.write(
                printable(f"{check['status']:<9} {check['part']:<16} {check['detail']}\n")
            )
            if check["fix"] and check["status"] in ("problem", "warning"):
                sys.stdout.write(printable(f"{'':<26} → run: {check['fix']}\n"))
        verdict = "healthy" if not problems else f"{problems} problem(s) left"
        print(f"memory-tui doctor: {verdict}", file=sys.stderr)
    return 0 if not problems else 1


def _http_server_checks(root: Path) -> list[dict[str, str]]:
    """One check per running ``serve-mcp --http``: a warning when it serves without a
    token on loopback, a problem beyond it (see app.mcp.serving)."""
    from app.mcp.serving import running
    from engine import MemoryPaths

    checks = []
    for server in running(MemoryPaths.for_root(root).memory_dir):
        status, detail, fix = server.exposure()
        checks.append({"part": "http server", "status": status, "detail": detail, "fix": fix})
    return checks
