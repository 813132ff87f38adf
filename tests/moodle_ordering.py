"""Moodle's ordering grades, transcribed from qtype_ordering's question.php (grade_response,
get_next_answerids, get_previous_and_next_answerids, get_ordered_subset) as an oracle that shares
nothing with the writers. Items are any hashable ids; 0 is Moodle's "no neighbour"."""

from __future__ import annotations


def _next_ids(ids: list, last_item: bool) -> dict:
    result, n = {}, len(ids) - 1
    if last_item:
        following = 0
    else:
        following = ids[n]
        n -= 1
    for i in range(n, -1, -1):
        result[ids[i]] = following
        following = ids[i]
    return result


def _previous_and_next(ids: list, every: bool) -> dict:
    result, before = {}, []
    after = list(ids)
    while after:
        item = after.pop(0)
        if every:
            result[item] = (list(before), list(after))
        else:
            result[item] = ([before[0] if before else 0], [after[0] if after else 0])
        before.insert(0, item)
    return result


def _ordered_subsets(positions: list, contiguous: bool) -> list:
    subsets: list[list[int]] = []
    for p, value in enumerate(positions):
        is_new, new = True, []
        for s, subset in enumerate(subsets):
            end = positions[subset[-1]]
            if value == end + 1:
                is_new = False
                subsets[s].append(p)
            elif contiguous:
                pass
            elif value > end:
                is_new = False
                new.append(list(subset))
                subsets[s].append(p)
        if is_new:
            new.append([p])
        subsets.extend(new)
    return subsets


def _ordered_subset(correct: list, current: list, contiguous: bool) -> list:
    positions = [correct.index(item) for item in current]
    best, best_count = [], 1
    for subset in _ordered_subsets(positions, contiguous):
        if len(subset) > best_count:
            best_count, best = len(subset), subset
    return best


def moodle_fraction(grading: str, correct: list, current: list) -> float:
    count_correct = count_answers = 0
    if grading in ("all_or_nothing", "absolute_position"):
        for position, item in enumerate(correct):
            if position < len(current) and current[position] == item:
                count_correct += 1
            count_answers += 1
        if grading == "all_or_nothing" and count_correct < count_answers:
            count_correct = 0
    elif grading in ("relative_next_exclude_last", "relative_next_include_last"):
        last = grading == "relative_next_include_last"
        now, right = _next_ids(current, last), _next_ids(correct, last)
        for item, following in right.items():
            if item in now and now[item] == following:
                count_correct += 1
            count_answers += 1
    elif grading in ("relative_one_previous_and_next", "relative_all_previous_and_next"):
        every = grading == "relative_all_previous_and_next"
        now, right = _previous_and_next(current, every), _previous_and_next(correct, every)
        for item, (before, after) in right.items():
            if item in now:
                count_correct += len([x for x in now[item][0] if x in before])
                count_correct += len([x for x in now[item][1] if x in after])
            count_answers += len(before) + len(after)
    elif grading in ("longest_ordered_subset", "longest_contiguous_subset"):
        count_correct = len(_ordered_subset(correct, current, grading == "longest_contiguous_subset"))
        count_answers = len(current)
    else:
        raise ValueError(grading)
    return 0.0 if count_answers == 0 else count_correct / count_answers
