#!/usr/bin/env python3
"""Synthetic question banks for the benchmark, the same for a given seed.

Two kinds of bank:
- "mixed": every question type in a realistic mix (mostly single choice), plain and Markdown
  text, feedback of every kind, Wolof, Dutch and English with emoji, a few options in another
  language, a few drafts and now and then a string that every format must escape.
- "mc": single choice only, written both as our JSON and in text2qti's plain-text format, so
  the two tools can be timed on the same questions. Its text is one Markdown paragraph per
  field with no character that means something else to text2qti ($ for LaTeX, backslash for
  siunitx, a leading "1." or "a)"), so both tools read the same content.

Only the standard library is used: the generator runs with any Python 3.11.

    bench/generate.py OUT --questions 20000 --files 20 [--seed 1] [--bank mixed|mc]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

# Shares of each question type in the mixed bank; the counts are exact (largest remainder).
MIX: dict[str, float] = {
    "single_choice": 0.60,
    "multiple_response": 0.10,
    "true_false": 0.10,
    "short_answer": 0.05,
    "numerical": 0.05,
    "matching": 0.04,
    "essay": 0.03,
    "description": 0.03,
}
DRAFT_SHARE = 0.01
# Types with correct / incorrect feedback (true/false has its own per answer; essays and
# descriptions are not scored automatically).
SCORED_FEEDBACK = ("single_choice", "multiple_response", "short_answer", "numerical", "matching")
MARKDOWN_QUIZ_EVERY = 5  # one quiz file in five is written in Markdown throughout
MARKDOWN_RATE = 0.3  # share of fields of a Markdown quiz that use some Markdown
LANGUAGES = ("wo", "nl", "en")

WORDS = {
    "wo": ("jàngalekat", "ndongo", "téere", "lekkool", "xam-xam", "mbir", "waxtaan", "jumtukaay", "xarala",
           "njàng", "ëllëg", "démb", "dëgg", "ñaar", "ñett", "benn", "juróom", "bopp", "xel", "liggéey",
           "ñépp", "góor", "jigéen", "kër", "dëkk", "àddina", "mbooloo", "tëralin", "wàll", "yëgël"),
    "nl": ("gradiënt", "geheugen", "rekenkracht", "parallellisme", "coördinatie", "efficiënt", "ideeën",
           "één", "reeël", "privé", "tweeëntwintig", "batch", "laag", "gewichten", "communicatie",
           "verdeling", "knooppunt", "snelheid", "bandbreedte", "controlepunt", "optimalisatie", "fase",
           "vertraging", "doorvoer", "kopie", "model", "matrix", "uitspraak", "berekening", "café"),
    "en": ("gradient", "memory", "pipeline", "throughput", "latency", "all-reduce", "tensor", "shard",
           "checkpoint", "optimizer", "bandwidth", "cache", "kernel", "batch", "layer", "weights",
           "activation", "stage", "rank", "node", "buffer", "stream", "device", "schedule", "bubble",
           "precision", "overlap", "partition", "replica", "scatter"),
}
QUESTION_OPENINGS = {
    "wo": ("Ndax", "Lan moo", "Naka la", "Ñaata", "Ana"),
    "nl": ("Welke uitspraak over", "Waarom is", "Hoe werkt", "Wat gebeurt er met", "Wanneer is"),
    "en": ("Which statement about", "Why does", "How does", "What happens to", "When is"),
}
EMOJI = ("🚀", "🎉", "🧠", "✅", "📚", "⚡", "🌍", "👍🏿", "🇸🇳", "🇳🇱")
# Options in another language than their quiz: (language, text).
FOREIGN_OPTIONS = (("fr", "Toutes les réponses ci-dessus"), ("ar", "نعم — كل ما سبق"), ("en", "None of the above"),
                   ("fr", "Aucune de ces réponses"))
# Strings that each format must escape; they stand in a small share of fields.
HOSTILE = ("a = b ~ c", "{x} #1 : y", "]]> and <script>alert(1)</script>", "R&D \"quoted\" 'single'",
           "e\u0301 (combining)", "C:\\path\\to", "<b>not bold</b> & <i>", "50% ~ half")
MARKDOWN_BITS = ("**{w}**", "*{w}*", "`{w}`", "[{w}](https://example.org/{w2})")


class _Writer:
    """Texts for one quiz: its language, whether it is Markdown, a shared random stream."""

    def __init__(self, rng: random.Random, language: str, markdown: bool, hostile: bool = True):
        self.rng = rng
        self.language = language
        self.markdown = markdown
        self.hostile = hostile

    def words(self, low: int, high: int) -> str:
        rng = self.rng
        pool = WORDS[self.language]
        words = rng.choices(pool, k=rng.randint(low, high))
        if rng.random() < 0.15:
            words.append(rng.choice(EMOJI))
        if self.markdown and rng.random() < MARKDOWN_RATE:
            index = rng.randrange(len(words))
            words[index] = rng.choice(MARKDOWN_BITS).format(w=words[index], w2=rng.choice(WORDS["en"]))
        if self.hostile and rng.random() < 0.02:
            words.insert(rng.randrange(len(words) + 1), rng.choice(HOSTILE))
        return " ".join(words)

    def sentence(self, low: int, high: int, end: str = ".") -> str:
        text = self.words(low, high)
        return text[0].upper() + text[1:] + end

    def stem(self) -> str:
        return f"{self.rng.choice(QUESTION_OPENINGS[self.language])} {self.words(8, 18)}?"

    def paragraphs(self) -> str:
        """Longer text: two paragraphs, in Markdown sometimes with a list or a code block."""
        first, second = self.sentence(15, 30), self.sentence(10, 25)
        if self.markdown and self.rng.random() < 0.3:
            items = "\n".join(f"- {self.words(2, 5)}" for _ in range(3))
            return f"{first}\n\n{items}\n\n```\nx = {self.rng.randint(1, 99)}  # {self.words(2, 4)}\n```"
        return f"{first}\n\n{second}"

    def text(self, value: str) -> str | dict:
        """In a plain quiz one field in six is Markdown, stated on the field itself."""
        if not self.markdown and self.rng.random() < 0.15:
            return {"text": f"{value} **{self.rng.choice(WORDS[self.language])}**", "format": "markdown"}
        return value


def _distinct(make, count: int) -> list[str]:
    """`count` different texts from `make` (options of one question must differ)."""
    seen: list[str] = []
    while len(seen) < count:
        value = make()
        if value not in seen:
            seen.append(value)
    return seen


def _common(w: _Writer, number: int, kind: str) -> dict:
    rng = w.rng
    question: dict = {"id": f"q{number}", "type": kind, "stem": w.text(w.stem())}
    if rng.random() < 0.1:
        question["title"] = w.sentence(2, 4, "")
    if rng.random() < 0.15:
        question["points"] = rng.choice((2, 3, 0.5))
    if rng.random() < 0.5:
        question["explanation"] = w.text(w.paragraphs())
    if rng.random() < 0.2 and kind in SCORED_FEEDBACK:
        question["feedback"] = {"correct": w.sentence(3, 8), "incorrect": w.sentence(4, 10)}
    if rng.random() < 0.3:
        question["tags"] = sorted(set(rng.sample(WORDS["en"], 2)))
    return question


def _options(w: _Writer, count: int, correct: set[int]) -> list[dict]:
    rng = w.rng
    texts = _distinct(lambda: w.sentence(3, 9, ""), count)
    options = []
    for index, text in enumerate(texts):
        option: dict = {"id": "abcdefgh"[index], "text": w.text(text)}
        if index in correct:
            option["correct"] = True
        if rng.random() < 0.3:
            option["feedback"] = w.sentence(3, 10)
        options.append(option)
    if rng.random() < 0.05:
        language, text = rng.choice([o for o in FOREIGN_OPTIONS if o[0] != w.language])
        options.append({"id": "z", "text": text, "language": language, "pinned": True})
    return options


def _single_choice(w: _Writer, q: dict) -> None:
    count = w.rng.choice((3, 4, 4, 4, 5))
    q["options"] = _options(w, count, {w.rng.randrange(count)})
    if w.rng.random() < 0.1:  # a half-right option: a Moodle grade fraction
        wrong = next(o for o in q["options"] if not o.get("correct") and o["id"] != "z")
        wrong["credit"] = 0.5


def _multiple_response(w: _Writer, q: dict) -> None:
    count = w.rng.choice((4, 5, 6))
    right = w.rng.choice((2, 2, 3)) if count < 6 else w.rng.choice((2, 3, 4))
    q["options"] = _options(w, count, set(w.rng.sample(range(count), right)))
    if w.rng.random() < 0.3:
        q.setdefault("feedback", {})["partially_correct"] = w.sentence(3, 8)


def _true_false(w: _Writer, q: dict) -> None:
    q.pop("feedback", None)  # a true/false question has feedback by answer instead
    q["stem"] = w.text(w.sentence(8, 18))
    q["answer"] = w.rng.random() < 0.5
    if w.rng.random() < 0.4:
        q["true_feedback"], q["false_feedback"] = w.sentence(3, 8), w.sentence(3, 8)


def _short_answer(w: _Writer, q: dict) -> None:
    pool = WORDS[w.language]
    first, second = _distinct(lambda: w.rng.choice(pool), 2)
    q["answers"] = [{"text": first, "feedback": w.sentence(2, 6)}]
    if w.rng.random() < 0.5:
        q["answers"].append({"text": second, "credit": 0.5})
    q["case_sensitive"] = w.rng.random() < 0.2


def _numerical(w: _Writer, q: dict) -> None:
    rng = w.rng
    if rng.random() < 0.3:
        low = round(rng.uniform(0, 50), 2)
        q["answers"] = [{"min": low, "max": round(low + rng.uniform(0.5, 5), 2)}]
    else:
        value = rng.choice((rng.randint(1, 1000), round(rng.uniform(-100, 100), 3)))
        q["answers"] = [{"value": value, "tolerance": rng.choice((0, 0.1, 0.5, 1))}]
        if rng.random() < 0.3:
            q["answers"].append({"value": value * 10, "credit": 0.5, "feedback": w.sentence(3, 6)})


def _matching(w: _Writer, q: dict) -> None:
    count = w.rng.choice((3, 4, 5))
    prompts = _distinct(lambda: w.sentence(2, 5, ""), count)
    answers = _distinct(lambda: w.words(1, 3), count + 1)
    q["pairs"] = [{"id": f"p{i}", "prompt": w.text(prompts[i]), "answer": answers[i]} for i in range(count)]
    if w.rng.random() < 0.5:
        q["distractors"] = [{"id": "d0", "text": answers[count]}]


def _essay(w: _Writer, q: dict) -> None:
    q.pop("feedback", None)  # graded by hand: no right or wrong outcome to give feedback on
    q["points"] = w.rng.choice((5, 10))
    if w.rng.random() < 0.6:
        q["grader_info"] = w.text(w.sentence(8, 16))
    if w.rng.random() < 0.3:
        q["response_template"] = w.sentence(3, 6, "")
    q["lines"] = w.rng.choice((5, 10, 15))


def _description(w: _Writer, q: dict) -> None:
    q["stem"] = w.text(w.paragraphs())
    q.pop("points", None)
    q.pop("feedback", None)


FILL = {"single_choice": _single_choice, "multiple_response": _multiple_response, "true_false": _true_false,
        "short_answer": _short_answer, "numerical": _numerical, "matching": _matching, "essay": _essay,
        "description": _description}


def type_counts(questions: int, mix: dict[str, float] = MIX) -> dict[str, int]:
    """Exact counts per type adding up to `questions` (largest remainder of each share)."""
    total = sum(mix.values())
    exact = {kind: questions * share / total for kind, share in mix.items()}
    counts = {kind: int(value) for kind, value in exact.items()}
    by_remainder = sorted(mix, key=lambda kind: (counts[kind] - exact[kind], list(mix).index(kind)))
    for kind in by_remainder[: questions - sum(counts.values())]:
        counts[kind] += 1
    return counts


def _split(items: list, parts: int) -> list[list]:
    """`parts` consecutive slices whose sizes differ by at most one."""
    size, extra = divmod(len(items), parts)
    slices, start = [], 0
    for index in range(parts):
        end = start + size + (1 if index < extra else 0)
        slices.append(items[start:end])
        start = end
    return slices


def _quiz_header(w: _Writer, index: int, prefix: str) -> dict:
    quiz: dict = {
        "$schema": "https://lmsexport.org/schema/quiz.schema.json",
        "id": f"{prefix}-{index + 1:04d}",
        "title": f"{w.sentence(2, 5, '')} {index + 1}",
        "language": w.language,
        "text_format": "markdown" if w.markdown else "plain",
        "category": ["Bench", f"{prefix} {index // 10 + 1}"],
        "tags": ["bench"],
    }
    if w.rng.random() < 0.5:
        quiz["description"] = w.paragraphs()
    return quiz


def mixed_bank(seed: int, questions: int, files: int, mix: dict[str, float] = MIX) -> list[dict]:
    """`files` quizzes holding `questions` questions of every type in the proportions of `mix`."""
    rng = random.Random(seed)
    kinds = [kind for kind, count in type_counts(questions, mix).items() for _ in range(count)]
    rng.shuffle(kinds)
    drafts = set(rng.sample(range(questions), round(questions * DRAFT_SHARE)))
    quizzes, number = [], 0
    for index, chunk in enumerate(_split(kinds, files)):
        w = _Writer(rng, LANGUAGES[index % len(LANGUAGES)], index % MARKDOWN_QUIZ_EVERY == MARKDOWN_QUIZ_EVERY - 1)
        quiz = _quiz_header(w, index, "bench")
        quiz["questions"] = []
        for position, kind in enumerate(chunk, 1):
            question = _common(w, position, kind)
            FILL[kind](w, question)
            if number in drafts:
                question["draft"] = True
            quiz["questions"].append(question)
            number += 1
        quizzes.append(quiz)
    return quizzes


def mc_bank(seed: int, questions: int, files: int = 1) -> list[dict]:
    """Single choice questions only, in a form text2qti can carry whole (see `to_text2qti`)."""
    rng = random.Random(seed)
    quizzes = []
    for index, chunk in enumerate(_split(list(range(questions)), files)):
        w = _Writer(rng, LANGUAGES[index % len(LANGUAGES)], markdown=True, hostile=False)
        quiz = {"$schema": "https://lmsexport.org/schema/quiz.schema.json", "id": f"mc-{index + 1:04d}",
                "title": f"{w.sentence(2, 5, '')} {index + 1}", "language": w.language,
                "description": w.sentence(8, 15), "text_format": "markdown", "questions": []}
        for position in range(1, len(chunk) + 1):
            count = rng.choice((3, 4, 4, 4, 5))
            right = rng.randrange(count)
            texts = _distinct(lambda: w.sentence(3, 9, ""), count)
            options = []
            for i, text in enumerate(texts):
                option: dict = {"id": "abcdefgh"[i], "text": text}
                if i == right:
                    option["correct"] = True
                if rng.random() < 0.3:
                    option["feedback"] = w.sentence(3, 10)
                options.append(option)
            question: dict = {"id": f"q{position}", "type": "single_choice", "stem": w.stem(), "options": options}
            if rng.random() < 0.5:
                question["explanation"] = w.sentence(15, 30)
            if rng.random() < 0.2:
                question["feedback"] = {"correct": w.sentence(3, 8), "incorrect": w.sentence(4, 10)}
            quiz["questions"].append(question)
        quizzes.append(quiz)
    return quizzes


def to_text2qti(quiz: dict) -> str:
    """One quiz of `mc_bank` in text2qti's format: "1." starts a question, "*a)" marks the
    correct choice, "..." is feedback (general after the question, else of the choice above),
    "+" and "-" are the feedback for a right and a wrong answer."""
    lines = [f"Quiz title: {quiz['title']}", f"Quiz description: {quiz['description']}", ""]
    for number, question in enumerate(quiz["questions"], 1):
        lines.append(f"{number}.  {question['stem']}")
        if "explanation" in question:
            lines.append(f"... {question['explanation']}")
        feedback = question.get("feedback", {})
        if "correct" in feedback:
            lines.append(f"+   {feedback['correct']}")
        if "incorrect" in feedback:
            lines.append(f"-   {feedback['incorrect']}")
        for option in question["options"]:
            mark = "*" if option.get("correct") else ""
            lines.append(f"{mark}{option['id']}) {option['text']}")
            if "feedback" in option:
                lines.append(f"... {option['feedback']}")
        lines.append("")
    return "\n".join(lines)


def to_bbq(quiz: dict) -> str:
    """One quiz of `mc_bank` as a Blackboard question upload file, what qti-package-maker reads:
    one line per question, `MC`, the stem, then each choice followed by `Correct` or `Incorrect`,
    separated by tabs. The format has no place for feedback, so that is left out; its text is
    HTML, and qti-package-maker refuses anything but ASCII, so other characters are written as
    character references (the same text once read as HTML)."""
    lines = []
    for question in quiz["questions"]:
        fields = ["MC", question["stem"]]
        for option in question["options"]:
            fields += [option["text"], "Correct" if option.get("correct") else "Incorrect"]
        lines.append("\t".join(fields).encode("ascii", "xmlcharrefreplace").decode("ascii"))
    return "\n".join(lines) + "\n"


def quiz_json(quiz: dict) -> str:
    return json.dumps(quiz, ensure_ascii=False, indent=2) + "\n"


def write_bank(out: Path, quizzes: list[dict], text2qti: bool = False) -> list[Path]:
    """Each quiz as OUT/json/ID.json (and OUT/text2qti/ID.txt, OUT/bbq/bbq-ID-questions.txt);
    returns the JSON paths.
    The JSON folder holds nothing else, so it can be given to lmsexport as it is."""
    (out / "json").mkdir(parents=True, exist_ok=True)
    paths = []
    for quiz in quizzes:
        path = out / "json" / f"{quiz['id']}.json"
        path.write_text(quiz_json(quiz), encoding="utf-8")
        paths.append(path)
        if text2qti:
            (out / "text2qti").mkdir(exist_ok=True)
            (out / "text2qti" / f"{quiz['id']}.txt").write_text(to_text2qti(quiz), encoding="utf-8")
            (out / "bbq").mkdir(exist_ok=True)  # qti-package-maker wants its input named bbq-NAME-questions.txt
            (out / "bbq" / f"bbq-{quiz['id']}-questions.txt").write_text(to_bbq(quiz), encoding="utf-8")
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write a synthetic question bank for the benchmark.")
    parser.add_argument("out", type=Path, help="folder to write into (json/ and, for --bank mc, text2qti/ and bbq/)")
    parser.add_argument("--questions", "-n", type=int, default=2000)
    parser.add_argument("--files", "-m", type=int, default=None, help="quiz files (default: one per 1,000 questions)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bank", choices=("mixed", "mc"), default="mixed",
                        help="mixed: every type; mc: single choice only, also in text2qti's format")
    args = parser.parse_args(argv)
    files = args.files or max(1, args.questions // 1000)
    if args.questions < files:
        parser.error("need at least one question per file")
    if args.bank == "mc":
        write_bank(args.out, mc_bank(args.seed, args.questions, files), text2qti=True)
    else:
        write_bank(args.out, mixed_bank(args.seed, args.questions, files))
    print(f"{args.questions} questions in {files} file(s) under {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
