"""Doc comments read as words: C# XML documentation tags, Javadoc inline tags and the HTML
they use become the text they stand for (engine.analyzer.comments), so a module summary
or a definition's doc says "System.Void", not ``<see cref="System.Void"/>``."""

from __future__ import annotations

import pytest

from engine.analyzer.comments import comment_text, first_paragraph


@pytest.mark.parametrize(
    ("comment", "text"),
    [
        pytest.param(
            '/// <summary>\n/// Represents a void type, since <see cref="System.Void"/> is not'
            " a valid return type in C#.\n/// </summary>",
            "Represents a void type, since System.Void is not a valid return type in C#.",
            id="csharp-see-cref",
        ),
        pytest.param(
            '/// <param name="next">Awaitable delegate</param> is <c>true</c> when'
            ' <paramref name="first"/> is <see langword="null"/>; see'
            ' <see cref="T:Acme.Bar">the bar</see>, <typeparamref name="TResponse"/>',
            "next: Awaitable delegate is true when first is null; see the bar, TResponse",
            id="csharp-param-langword-labelled-see",
        ),
        pytest.param(
            "/**\n * Returns a {@link JsonElement} for {@code obj}; see"
            " {@link Gson#toJson(Object)}.<p>More {@inheritDoc}\n */",
            "Returns a JsonElement for obj; see Gson.toJson(Object). More",
            id="javadoc-inline-tags",
        ),
        pytest.param(
            "# <b>DEPRECATED:</b> Please consider <tt>rerun</tt> instead.",
            "DEPRECATED: Please consider rerun instead.",
            id="rdoc-html",
        ),
        pytest.param(
            "// Maps List<String> to x when a < b and c > d.",
            "Maps List<String> to x when a < b and c > d.",
            id="generics-and-comparisons-stay",
        ),
    ],
)
def test_documentation_markup_reads_as_words(comment: str, text: str) -> None:
    assert first_paragraph(comment_text([comment])) == text
