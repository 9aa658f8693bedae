"""Issue 36 in the app: the rows follow the score they show (no silent per-file
reordering), and the preview says what the score rests on."""

from __future__ import annotations

from textual.widgets import Static
from tui_helpers import make_app, search_for

from app.tui.screens.main import MainScreen
from app.tui.widgets.preview import EntryPreview
from app.tui.widgets.results_table import ResultsTable
from engine.services.indexing import Indexer
from engine.services.memory import Memory


def filler(n: int, tag: str) -> str:
    return " ".join(f"{tag}w{j}" for j in range(n))


async def test_rows_are_in_the_order_of_the_score_they_show(memory: Memory) -> None:
    # One long page whose sections all match, and a few other files matching less well:
    # the page's third section and after used to be moved behind the other files; now
    # they are folded under its best section, and every row follows the score shown.
    folder = memory.paths.knowledge_dir
    folder.mkdir(parents=True, exist_ok=True)
    sections = [f"## Part {i}\n\nretry backoff {filler(i, f'g{i}')}\n" for i in range(6)]
    (folder / "guide.md").write_text("# Guide\n\n" + "\n".join(sections), encoding="utf-8")
    for i in range(3):
        text = f"# Other {i}\n\nretry {filler(8 + 4 * i, f'o{i}')}\n"
        (folder / f"other{i}.md").write_text(text, encoding="utf-8")
    Indexer(memory).run()
    app = make_app(memory)
    async with app.run_test(size=(160, 48)) as pilot:
        await search_for(pilot, "retry backoff ")
        screen = app.screen
        assert isinstance(screen, MainScreen)
        table = screen.query_one(ResultsTable)
        guide = [r for r in table.results if r.entry.file_path.endswith("guide.md")]
        assert len(guide) == 2 and guide[0].explanation.folded > 0  # the rest folded
        scores = [r.score for r in table.results]
        assert scores == sorted(scores, reverse=True)
        cells = [row[1] for row in table._rows]  # the score cells as drawn
        shown = [float(cell.split()[-1]) for cell in cells]
        assert shown == sorted(shown, reverse=True)
        why = screen.query_one(EntryPreview).query_one("#preview-why", Static).render()
        assert all(word in str(why) for word in ("relevance", "similarity", "bm25", "words"))
