"""The content file an import writes states the text format most of its texts use once, at the top
(`text_format`), and only the others as {"text", "format"} objects: every text of the model
counts, as Question.texts() yields them, the blanks' feedback included."""

from __future__ import annotations

from lmsexport.importers.canonical_json import quiz_to_data
from lmsexport.model import AcceptedAnswer, FillInBlanks, Quiz, ShortAnswerBlank, Text, TextFormat


def test_the_main_format_counts_the_feedback_of_blanks():
    feedback = Text("*well done*", TextFormat.MARKDOWN)
    blanks = tuple(ShortAnswerBlank(id=f"b{i}", answers=(AcceptedAnswer(text="x", credit=1.0, feedback=feedback),)) for i in range(3))
    question = FillInBlanks(id="f", stem=Text("[[b0]] [[b1]] [[b2]]"), blanks=blanks)
    data = quiz_to_data(Quiz(id="q", title="Q", language="en", questions=(question,)))
    assert data["text_format"] == "markdown"
    written = data["questions"][0]
    assert written["stem"] == {"text": "[[b0]] [[b1]] [[b2]]", "format": "plain"}
    assert [b["answers"][0]["feedback"] for b in written["blanks"]] == ["*well done*"] * 3
