"""`unique_ids_of_list` answers a list with no two ids alike at once, from a set of its lowered
ids; these tests hold that shortcut to the id-by-id walk of `unique_ids` over lists with and
without duplicates, ids differing only by case, and items with no id."""

from hypothesis import given, strategies as st

from lmsexport.checks.ids import unique_ids, unique_ids_of_list

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
