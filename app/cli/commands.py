"""Handlers of the headless subcommands. Each takes the parsed args and project root."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.messages import add_message, report_index_problems
from app.cli.options import EXIT_USAGE
from app.project import require_initialised
from engine import (
    NOTE_SOURCES,
    EngineError,
    MemoryPaths,
    NotFoundError,
    SearchMode,
    add_json,
    entry_json,
    json_text,
    printable,
)

if TYPE_CHECKING:
    from engine import Entry, Memory


def _open(root: Path, *, must_exist: bool = True, vectors: bool = False) -> Memory:
    from engine import Memory

    if must_exist:
        require_initialised(root, vectors=vectors)
    return Memory.open(root)


def _entries_json(
    memory: Memory, entries: Sequence[Entry], stale: Mapping[str, str] | None = None
) -> list[dict[str, object]]:
    """Entries in the one JSON shape of every face, with their stale flags (``stale``:
    the reasons by id, when the caller has them already)."""
    if stale is None:
        stale = memory.stale_reasons([e.id for e in entries])
    prefix = memory.paths.knowledge_prefix
    return [
        entry_json(e, stale_reason=stale.get(e.id, ""), knowledge_prefix=prefix) for e in entries
    ]


def _emit(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def _show(text: str) -> None:
    """Write text built from the memory: escape sequences in it are made inert."""
    _emit(printable(text))


def _emit_json(data: object) -> None:
    """Write ``data`` as JSON, exact but with nothing a terminal would obey."""
    _emit(json_text(json.dumps(data, indent=2, ensure_ascii=False)) + "\n")


def _warn(message: str) -> None:
    print(printable(f"memory-tui: warning: {message}"), file=sys.stderr)


def search(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui search``. A running ``serve-mcp`` of the project runs a search by
    meaning when one answers (:mod:`app.served`: its model and store are loaded)."""
    from app.cli.export import write
    from app.served import run_search, search_by_server, search_request

    fmt = "json" if args.json and not args.format else (args.format or "text")
    searched = search_by_server(root, args, fmt)
    if searched is None:
        with _open(root, vectors=args.mode != SearchMode.KEYWORD) as memory:
            searched = run_search(memory, search_request(args, fmt))
    for warning in searched.warnings:
        _warn(warning)
    write(searched.output)
    for entry_id, rel in searched.promoted:
        print(printable(f"auto-promoted {entry_id} to {rel}"), file=sys.stderr)
    return 0


def _read_stdin() -> str:
    """All of stdin as UTF-8 text; a clear error (not a traceback) when it is not UTF-8."""
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EngineError(
            f"stdin is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "convert it first, e.g. with iconv",
            code="INVALID_INPUT",
        ) from None


def add(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui add``."""
    content = _read_stdin() if args.content == "-" else args.content
    with _open(root, must_exist=False) as memory:
        result = memory.add(
            content, category=args.category, keywords=args.keywords.split(","), source="manual"
        )
        stored = _entries_json(memory, [result.entry])[0] if args.json else None
    near = result.near_duplicate
    if stored is not None:
        close = (near.entry.id, near.similarity) if near else None
        _emit_json(
            add_json(
                stored, created=result.created, redactions=result.redactions, near_duplicate=close
            )
        )
    else:
        _emit(f"{result.entry.id}\n")
        print(add_message(result), file=sys.stderr)
    for kind in result.redactions:
        _warn(f"redacted a likely secret ({kind})")
    return 0


def list_entries(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui list``: a line per entry, or JSON, csv, md or xml (``--format``)."""
    fmt = "json" if args.json and not args.format else (args.format or "text")
    with _open(root) as memory:
        found = memory.listing(
            category=args.category,
            source=args.source,
            limit=None if args.all else args.limit,
            stale_only=args.stale,
            sort=args.sort,
        )
        entries, total = found.entries, found.total
        if fmt == "json":
            _emit_json(_entries_json(memory, entries, found.stale))
            return 0
        if fmt != "text":  # the exporter's csv, md, xml
            from app.cli.export import emit

            emit(found, fmt, memory.paths.knowledge_prefix)
            return 0
    for entry in entries:
        title = " ".join(entry.title.split())[:70]
        where = entry.location or f"({entry.source.value})"
        _show(f"{entry.id}  {entry.created_at[:10]}  {entry.category.value:<12} {title}  {where}\n")
    if not entries:
        print("no entries", file=sys.stderr)
    elif len(entries) < total:
        print(f"showing {len(entries)} of {total} entries (--all lists them all)", file=sys.stderr)
    return 0


def get(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui get``."""
    with _open(root) as memory:
        from engine import resolve_entry

        entry = resolve_entry(memory, args.id)
        if entry.id != args.id and not entry.id.startswith(args.id):  # a promoted one's old id
            moved = f"{args.id} was promoted: it is now {entry.id} ({entry.location})"
            print(moved, file=sys.stderr)
        if args.json:
            _emit_json(_entries_json(memory, [entry])[0])
            return 0
    lines = [
        f"id:         {entry.id}",
        f"category:   {entry.category.value}",
        f"source:     {entry.source.value}",
    ]
    if entry.location:
        lines.append(f"location:   {entry.location}")
    if entry.section_title:
        lines.append(f"section:    {entry.section_title}")
    if entry.keywords:
        lines.append(f"keywords:   {', '.join(entry.keywords)}")
    lines += [
        f"created:    {entry.created_at}",
        f"updated:    {entry.updated_at}",
        f"references: {entry.reference_count}",
        f"promoted:   {'yes, ' + entry.promoted_at if entry.promoted else 'no'}",
        "",
        entry.content,
    ]
    _show("\n".join(lines) + "\n")
    return 0


def delete(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui delete``."""
    from engine import FileIsSourceError

    missing, refused = [], []
    with _open(root) as memory:
        for entry_id in args.ids:
            try:
                if memory.delete(entry_id):
                    print(f"deleted {entry_id}", file=sys.stderr)
                else:
                    missing.append(entry_id)
            except FileIsSourceError as exc:  # from a knowledge file: the file is the source
                refused.append(exc.message)
    missed = ["no entry with id " + ", ".join(f"'{m}'" for m in missing)] if missing else []
    if refused or missed:  # said after deleting the others
        raise (FileIsSourceError if refused else NotFoundError)("\n".join(refused + missed))
    return 0


def stats(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui stats``."""
    with _open(root) as memory:
        data = memory.stats()
    if args.json:
        _emit_json(data)
        return 0
    lines = [f"project:  {data['project']}", f"entries:  {data['entries']}"]
    for key in ("by_category", "by_source"):
        counts = data[key]
        if counts:
            detail = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            lines.append(f"{key.replace('by_', ''):<9} {detail}")
    lines.append(f"config:   {data['config']}")
    by_source = data["by_source"]
    local = sum(by_source.get(source.value, 0) for source in NOTE_SOURCES)
    if local:
        lines.append(
            f"personal: {local} {'note' if local == 1 else 'notes'} (session and manual) live "
            "only in this machine's .claude/memory/; `memory-tui promote ID` moves one into "
            ".claude/knowledge/ to share"
        )
    _show("\n".join(lines) + "\n")
    return 0


def open_app(args: argparse.Namespace, root: Path) -> int:
    """Bare ``memory-tui``: the terminal app (the knowledge folder is indexed on first run).
    Without a terminal on both ends (a pipe, a redirect, a CI job) the app could neither
    read keys nor draw: it says so and which commands serve a pipe, and changes nothing."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            "memory-tui: the app needs a terminal (standard input and output are not one); "
            'in a pipe or a script use `memory-tui search "…"`, `memory-tui list` or '
            "`memory-tui --help`",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if not MemoryPaths.for_root(root).memory_dir.is_dir():
        print(
            f"memory-tui: first run in {root}: indexing the knowledge files and docs "
            "(keyword search first; the app computes the vectors in the background)",
            file=sys.stderr,
        )
        first = argparse.Namespace(force=False, dry_run=False, json=False, no_embed=True)
        index(first, root)
    from app.tui.factory import build_app

    app = build_app(root)
    app.run()
    # The terminal is restored and the memory closed; unloading torch and LanceDB at
    # interpreter exit takes ~2 s and saves nothing, so leave at once.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(app.return_code or 0)


def index(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui index``: summary on stdout, progress bar on a terminal only. A running
    ``serve-mcp`` of the project runs it when one answers (:mod:`app.served`)."""
    from app.progress import embedding_progress, pending_line, progress_bar
    from app.served import index_by_server

    embed = not args.dry_run and not args.no_embed
    report = None
    if not args.force:  # a running server's store is open and its model loaded
        report = index_by_server(root, dry_run=args.dry_run, embed=embed)
    if report is None:
        from engine import Indexer

        with _open(root, must_exist=False) as memory:
            indexer = Indexer(memory)
            with progress_bar("Indexing") as update:  # the first phase: keyword search works
                report = indexer.run(
                    force=args.force, dry_run=args.dry_run, progress=update, embed=False
                )
            if embed:
                with embedding_progress("Embedding") as update:
                    indexer.embed(report, progress=update)
    report_index_problems(report)
    if args.json:
        data = asdict(report)
        data["errors"] = [{"file": f, "message": m} for f, m in report.errors]
        data["warnings"] = [{"file": f, "message": m} for f, m in report.warnings]
        _emit_json(data)
    else:
        verb = "would change" if report.dry_run else "changed"
        _emit(
            f"{'Dry run: ' if report.dry_run else ''}{report.files_total} files: "
            f"{report.files_processed} {verb}, {report.files_skipped} unchanged, "
            f"{report.files_removed} removed, {len(report.errors)} errors\n"
            f"entries: {report.entries_created} created, {report.entries_updated} updated, "
            f"{report.entries_deleted} deleted; {report.embedded} chunks embedded; "
            f"{report.seconds:.2f} s\n"
        )
        if report.pending:
            _emit(pending_line(report.pending))
        if report.dry_run:
            for rel in report.changed_files:
                _show(f"  would index {rel}\n")
    return 1 if report.errors else 0


def embed(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui embed``: the second phase of indexing alone, in the foreground."""
    from app.progress import embedding_progress

    with _open(root) as memory, embedding_progress("Embedding") as update:
        done = memory.embed_waiting(progress=update)
    if args.json:
        _emit_json({"embedded": done.embedded, "pending": done.pending, "seconds": done.seconds})
    else:
        _emit(f"{done.embedded} entries embedded, {done.pending} waiting; {done.seconds:.2f} s\n")
    return 0


def analyze(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui analyze``."""
    from app.progress import progress_bar
    from engine import run_discovery

    with _open(root, must_exist=False) as memory, progress_bar("Analysing") as update:
        found = run_discovery(memory, progress=update)
    analysis = found.analysis
    summary = {
        **found.summary(),
        "errors": [{"file": f, "message": m} for f, m in analysis.errors],
    }
    if args.json:
        _emit_json(summary)
        return 0
    langs = ", ".join(f"{s.language} {s.files}" for s in analysis.languages[:6]) or "none"
    _emit(
        f"{analysis.name}: {analysis.stats.get('files', 0)} files; languages: {langs}\n"
        f"entry points: {', '.join(summary['entryPoints']) or 'none found'}\n"
        f"frameworks: {', '.join(analysis.frameworks) or 'none'}; "
        f"test tools: {', '.join(analysis.test_tools) or 'none'}\n"
        f"{len(analysis.symbols)} exported symbols; discovery entries: {found.created} new, "
        f"{found.kept} unchanged, {found.deleted} removed\n"
    )
    for file, message in analysis.errors:
        _warn(f"{file}: {message}")
    return 0


def prompt_hook(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui hook``: always exits 0, prints context or nothing."""
    from app.prompt_hook import main as hook_main

    return hook_main(args.project.resolve() if args.project else None)


def serve_mcp(args: argparse.Namespace, root: Path) -> int:
    """``memory-tui serve-mcp``: the MCP server (stdio, or streamable HTTP with --http)."""
    import logging

    from app.cli.options import EXIT_USAGE, PROG
    from app.mcp.auth import TOKEN_ENV, TokenError, load_token, require_token_beyond_loopback
    from app.mcp.listen import EXIT_CANNOT_LISTEN, ListenError
    from app.mcp_server import serve

    if args.token_file is not None and not args.http:
        print(f"{PROG}: error: --token-file goes with --http", file=sys.stderr)
        return EXIT_USAGE
    try:
        token = load_token(args.token_file) if args.http else None
        if args.http:  # refused here, before the server opens anything or binds the port
            require_token_beyond_loopback(args.host, token)
    except TokenError as exc:
        print(printable(f"{PROG}: error: {exc.message}"), file=sys.stderr)
        return EXIT_USAGE
    source = "the one in the --token-file file" if args.token_file else f"${TOKEN_ENV}"
    try:
        code = serve(
            root,
            http=args.http,
            host=args.host,
            port=args.port,
            verbose=args.verbose,
            token=token,
            token_from=source,
        )
    except ListenError as exc:
        print(printable(f"{PROG}: error: {exc.message}"), file=sys.stderr)
        return EXIT_CANNOT_LISTEN
    # The memory is closed and the log flushed. The model may still be loading in a native
    # thread (the client left during the warm-up); finalising the interpreter under it
    # aborts the process (SIGABRT), so leave without finalising, as the terminal app does.
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
