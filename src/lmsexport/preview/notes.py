"""Platform notes as HTML: per platform, what the writer said about a question or the quiz."""

from __future__ import annotations

from ..diagnostics import Diagnostic, Severity
from ..model import Question
from .markup import attr, plain
from .platforms import PlatformNotes, platform_name, without_question_prefix


def _verdict(found: list[Diagnostic]) -> str:
    if any(d.severity is Severity.ERROR for d in found):
        return "cannot be exported"
    if any(d.severity is Severity.WARNING for d in found):
        return "changes or drops something"
    return "keeps it, with a note"


def platform_list(notes: dict[str, list[Diagnostic]], formats: tuple[str, ...], question_id: str | None, prefix: str = "") -> str:
    items = []
    for name in formats:
        found = notes.get(name, [])
        if not found:
            items.append(f'<li class="platform kept"><span class="platform-name">{plain(platform_name(name))}</span> '
                         '<span class="verdict">keeps it as written</span></li>')
            continue
        worst = "error" if any(d.severity is Severity.ERROR for d in found) else ("warning" if any(d.severity is Severity.WARNING for d in found) else "note")
        lines = "".join(f'<li class="sev-{d.severity.value}"><span class="severity">{d.severity.value}</span> '
                        f'{plain(_message(d.message, question_id, prefix))}</li>' for d in found)
        items.append(f'<li class="platform sev-{worst}"><span class="platform-name">{plain(platform_name(name))}</span> '
                     f'<span class="verdict">{_verdict(found)}</span><ul>{lines}</ul></li>')
    return f'<ul class="platform-list" lang="en" dir="ltr">{"".join(items)}</ul>'


def _message(message: str, question_id: str | None, prefix: str) -> str:
    """Inside a question's (or section's) card, the name in front of a message only repeats it."""
    if question_id:
        return without_question_prefix(message, question_id)
    return message.removeprefix(prefix) if prefix else message


def badges(notes: dict[str, list[Diagnostic]], formats: tuple[str, ...]) -> str:
    badges = []
    for name in formats:
        count = len(notes.get(name, []))
        state = "kept" if not count else ("error" if any(d.is_error for d in notes[name]) else "changed")
        label = "✓" if not count else f"· {count}"
        badges.append(f'<span class="badge {state}" title="{attr(platform_name(name))}: {"as written" if not count else f"{count} note(s)"}">'
                      f'{plain(platform_name(name))} {label}</span>')
    return "".join(badges)


def section_platforms(section_id: str, found: dict[str, list[Diagnostic]], formats: tuple[str, ...]) -> str:
    """What each platform makes of a section (its draw, its order, its instructions)."""
    return (f'<details class="platforms"><summary lang="en" dir="ltr"><span class="summary-label">This section on each platform</span> '
            f'{badges(found, formats)}</summary>{platform_list(found, formats, None, f"section {section_id!r}: ")}</details>')


def question_platforms(question: Question, index: int, notes: PlatformNotes) -> str:
    if question.draft:
        body = '<p class="note" lang="en" dir="ltr">A draft stays in the bank: no platform receives it.</p>'
        shown = '<span class="badge draft">not exported</span>'
    else:
        found = notes.of(index)
        body = platform_list(found, notes.formats, question.id)
        shown = badges(found, notes.formats)
    return (f'<details class="platforms"><summary lang="en" dir="ltr"><span class="summary-label">On each platform</span> {shown}</summary>'
            f'{body}</details>')
