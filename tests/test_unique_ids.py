"""`unique_ids_of_list` answers a list with no two ids alike at once, from a set of its lowered
ids; these tests hold that shortcut to the id-by-id walk of `unique_ids` over lists with and
without duplicates, ids differing only by case, and items with no id."""

import json
from pathlib import Path

from hypothesis import given, strategies as st

from lmsexport.checks.ids import unique_ids, unique_ids_of_list
from lmsexport.loader import load_bytes

# Few letters in both cases, so that generated lists often hold ids equal or equal but for case.
_IDS = st.text(alphabet="aAbB-_1", min_size=1, max_size=3)
_LISTS = st.lists(st.one_of(_IDS, st.none()), max_size=12)
_PREFIXES = st.sampled_from([(), ("options",), ("blanks", 2, "options")])


def _walked(identifiers, base, prefix):
    """What `unique_ids` says of the same list, given id by id."""
    ids = ((identifier, (*prefix, i, "id")) for i, identifier in enumerate(identifiers) if identifier is not None)
    return list(unique_ids(ids, base, "option", "quiz.json"))


@given(_LISTS, _PREFIXES)
def test_the_list_shortcut_says_what_the_id_by_id_walk_says(identifiers, prefix):
    assert list(unique_ids_of_list(identifiers, "/questions/3", "option", "quiz.json", prefix)) == _walked(identifiers, "/questions/3", prefix)


@given(st.lists(_IDS, max_size=12), _PREFIXES)
def test_a_list_without_missing_ids_says_the_same(identifiers, prefix):
    assert list(unique_ids_of_list(identifiers, "", "option", "quiz.json", prefix)) == _walked(identifiers, "", prefix)


def test_duplicates_and_case_collisions_are_found_where_they_stand():
    found = list(unique_ids_of_list(["a", None, "b", "A", "b"], "/questions/0", "option", "quiz.json", ("options",)))
    assert [(d.pointer, d.message) for d in found] == [
        ("/questions/0/options/3/id", "the option id 'A' differs from 'a' only by case: option ids must be unique"),
        ("/questions/0/options/4/id", "the option id 'b' is used twice: option ids must be unique"),
    ]


def test_two_missing_ids_are_no_duplicate():
    assert list(unique_ids_of_list([None, "a", None], "/questions", "question", "quiz.json")) == []


# Question ids of every kind JSON allows, as a quiz that breaks the schema may hold them: the
# loader compares the string ones across all questions, broken ones too, and ignores the rest.
_ANY_ID = st.one_of(_IDS, st.integers(-2, 2), st.floats(allow_nan=False, allow_infinity=False), st.booleans(), st.none(),
                    st.lists(_IDS, max_size=2), st.dictionaries(_IDS, _IDS, max_size=1))
_MISSING = object()


@given(st.lists(st.one_of(_ANY_ID, st.just(_MISSING)), max_size=8), st.booleans())
def test_the_loader_compares_the_string_question_ids_of_a_broken_quiz_as_the_walk_does(identifiers, with_a_non_object):
    questions = [{"type": "essay", "stem": "Why?"} if i is _MISSING else {"id": i, "type": "essay", "stem": "Why?"} for i in identifiers]
    if with_a_non_object:
        questions.append("not a question")
    questions.append({"type": "essay"})  # always one broken question: the quiz is checked as a broken one
    raw = json.dumps({"id": "q", "title": "T", "language": "en", "questions": questions}).encode()
    found = [d for d in load_bytes(raw, "quiz.json", Path("."), placed=False).diagnostics if d.code == "duplicate-id"]
    expected = unique_ids(((q["id"], (i, "id")) for i, q in enumerate(questions) if isinstance(q, dict) and isinstance(q.get("id"), str)),
                          "/questions", "question", "quiz.json")
    assert sorted((d.pointer, d.message) for d in found) == sorted((d.pointer, d.message) for d in expected)
