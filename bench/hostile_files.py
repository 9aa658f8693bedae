# ruff: noqa: E501  (each check is a script run in a fresh interpreter, one statement a line)
"""Hostile files and folders (issue 15) and promotion (issue 17), against one checkout.

    python bench/hostile_files.py [REPO]     # default: this checkout

Prints one line per attack: what it is | what happened. Each runs in a fresh interpreter
over a fresh project (fake embedder), killed after 20 s, so a hang shows as HANG. Run it on
an older checkout for the "before" column of issue 15's closing table.
"""

import subprocess
import sys
import textwrap
from pathlib import Path

REPO = sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parents[1])
PRE = f"""
import os, sys, tempfile
sys.path[:0] = [{REPO!r}, {REPO + "/tests"!r}]
from pathlib import Path
from fakes import FakeEmbedder
from engine.services.memory import Memory
from engine.services.indexing import Indexer
root = Path(tempfile.mkdtemp()) / "project"
(root / ".claude" / "knowledge").mkdir(parents=True)
K = root / ".claude" / "knowledge"
outside = root.parent / "outside"; outside.mkdir()
(outside / "id_rsa.md").write_text("# key\\n\\nPRIVATE KEY material\\n")
"""
CHECKS = {
    "knowledge_dir='../outside' in config": """
(root/".claude"/"memory.config.toml").write_text('knowledge_dir = "../outside"\\n')
try:
    with Memory.open(root, embedder=FakeEmbedder()) as m:
        Indexer(m).run(); print("indexed outside files:", sorted({e.file_path for e in m.list()}))
except Exception as e: print("refused:", type(e).__name__, str(e)[:90])
""",
    ".claude/knowledge symlinked outside": """
K.rmdir(); K.symlink_to(outside, target_is_directory=True)
try:
    with Memory.open(root, embedder=FakeEmbedder()) as m:
        Indexer(m).run(); print("indexed outside files:", sorted({e.file_path for e in m.list()}))
except Exception as e: print("refused:", type(e).__name__, str(e)[:90])
""",
    "memory://.env served": """
(K/".env").write_text("API_TOKEN=hunter2\\n")
from app.mcp import knowledge
try: print("served:", knowledge.read(K, ".env").strip())
except Exception as e: print("refused:", str(e)[:90])
""",
    "memory:// of a FIFO": """
os.mkfifo(K/"pipe.md")
from app.mcp import knowledge
try: print("served:", repr(knowledge.read(K, "pipe.md")))
except Exception as e: print("refused:", str(e)[:90])
""",
    "memory:// listing with a symlink loop": """
(K/"good.md").write_text("# Good\\n\\nok\\n"); (K/"loop.md").symlink_to(K/"loop.md")
from app.mcp import knowledge
try: print("listed:", [f.path for f in knowledge.files(K)])
except Exception as e: print("error:", type(e).__name__, str(e)[:80])
""",
    "memory:// read of a symlink loop": """
(K/"loop.md").symlink_to(K/"loop.md")
from app.mcp import knowledge
try: print("served:", knowledge.read(K, "loop.md"))
except knowledge.KnowledgePathError as e: print("refused:", str(e)[:90])
except Exception as e: print("internal error:", type(e).__name__, str(e)[:60])
""",
    "doctor with a hidden .md after index": """
(K/"good.md").write_text("# Good\\n\\nok\\n"); (K/".draft.md").write_text("# Draft\\n\\nwip\\n")
from engine.services.health import diagnose
with Memory.open(root, embedder=FakeEmbedder()) as m: Indexer(m).run()
c = next(c for c in diagnose(root, FakeEmbedder()).checks if c.part == "knowledge")
print(c.status.value + ":", c.detail)
""",
    "doctor with a 2 GB sparse file (peak RSS)": """
(K/"huge.md").touch(); os.truncate(K/"huge.md", 2*1024**3)
import resource
from engine.services.health import diagnose
c = next(c for c in diagnose(root, FakeEmbedder()).checks if c.part == "knowledge")
print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss//1024} MB;", c.status.value + ":", c.detail[:70])
""",
    "index with a 2 GB sparse file (peak RSS)": """
(K/"huge.md").touch(); os.truncate(K/"huge.md", 2*1024**3)
import resource
with Memory.open(root, embedder=FakeEmbedder()) as m: r = Indexer(m).run()
print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss//1024} MB;", r.errors[0][1][:60])
""",
    "promote into a gotchas/ folder symlinked outside": """
(K/"gotchas").symlink_to(outside, target_is_directory=True)
from engine.services.promote import promote
from engine.services.parts import parts_of
with Memory.open(root, embedder=FakeEmbedder()) as m:
    n = m.add("Never write outside", category="gotcha", source="session").entry
    try: r = promote(m, n.id); print("wrote", r.path.resolve(), "| entry kept:", parts_of(m).mirror.get(n.id) is not None)
    except Exception as e: print("refused:", str(e)[:70], "| entry kept:", parts_of(m).mirror.get(n.id) is not None)
print("outside now holds:", sorted(p.name for p in outside.iterdir()))
""",
    "promote through a dangling gotchas.md link": """
(K/"gotchas.md").symlink_to(outside / "planted.md")
from engine.services.promote import promote
from engine.services.parts import parts_of
with Memory.open(root, embedder=FakeEmbedder()) as m:
    n = m.add("Dangling links are traps", category="gotcha", source="session").entry
    try: r = promote(m, n.id); print("wrote", r.path.relative_to(root), "| planted exists:", (outside/"planted.md").exists())
    except Exception as e: print("refused:", str(e)[:70], "| entry kept:", parts_of(m).mirror.get(n.id) is not None)
""",
    "promote into a file that indexes nothing": """
(K/"gotchas.md").write_text("<!-- vector-index: false -->\\n# Gotchas\\n")
from engine.services.promote import promote
from engine.services.parts import parts_of
with Memory.open(root, embedder=FakeEmbedder()) as m:
    n = m.add("Indexed nowhere", category="gotcha", source="session").entry
    try: r = promote(m, n.id); print("promoted to", r.path.relative_to(root), "| indexed:", len(r.entries), "| entry kept:", parts_of(m).mirror.get(n.id) is not None)
    except Exception as e: print("refused:", str(e)[-60:], "| entry kept:", parts_of(m).mirror.get(n.id) is not None)
""",
    "promote beside gotchas.md, then get OLD_ID": """
(K/"gotchas.md").write_text("# Gotchas\\n\\n## First\\n\\nOne.\\n")
from engine.services.promote import promote
from engine.services.parts import parts_of
with Memory.open(root, embedder=FakeEmbedder()) as m:
    Indexer(m).run()
    n = m.add("A fairly long gotcha title about the seed script and migrations ordering", category="gotcha", source="session").entry
    r = promote(m, n.id); g = m.get(n.id)
    print("to", r.path.relative_to(K), "| heading:", [l for l in r.path.read_text().splitlines() if l.startswith("#")][-1][:70], "| get OLD_ID:", "answers" if g else "None")
""",
}
for name, body in CHECKS.items():
    code = PRE + textwrap.dedent(body)
    try:
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=20, cwd="/tmp"
        )
        line = (
            (out.stdout.strip().splitlines() or [""])[-1]
            if out.returncode == 0
            else "TRACEBACK " + (out.stderr.strip().splitlines() or [""])[-1][:100]
        )
        if out.returncode == 0 and len(out.stdout.strip().splitlines()) > 1:
            line = " / ".join(out.stdout.strip().splitlines())
    except subprocess.TimeoutExpired:
        line = "HANG (killed after 20 s)"
    print(f"{name:50} | {line}", flush=True)
