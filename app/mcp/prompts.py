"""The ``query`` prompt: how to search the project's memory well."""

from __future__ import annotations

QUERY_GUIDE = """\
Search this project's memory for information about: {topic}

Use the memory_search tool. Choose the mode by what you are looking for:
- "hybrid" (the default) combines meaning and exact terms in one ranking. Use it when unsure.
- "keyword" (BM25) for exact terms: function and class names, file names, error messages,
  configuration keys, version numbers. It is instant and needs no model.
- "vector" for concepts and paraphrases, when you do not know the words the notes use
  ("how do we retry failed jobs" finds a note about "backoff for the task queue").

Tips:
- Be specific: "LanceDB filter on camelCase column" beats "database".
- Include the technical terms you know; search again with other words if nothing fits.
- Filter by category when it helps: architecture, component, domain, pattern, gotcha,
  discovery (from code analysis), general.
- An empty result means nothing relevant is stored; do not assume the opposite.
- Results from knowledge files carry filePath, line and a memory:// uri: read that resource
  for the whole file.
- When you learn something durable that is not there yet, save it with memory_add.
"""


def query_prompt(topic: str) -> str:
    """The text of the ``query`` prompt for ``topic``."""
    return QUERY_GUIDE.format(topic=topic.strip() or "the task at hand")
