"""The tolerances every check, writer and reader judges numbers by, at their bounds."""

from __future__ import annotations

from lmsexport.tolerances import is_full_credit, reaches_full_credit, same_but_for_rounding


def test_values_a_billionth_apart_or_closer_differ_by_rounding_alone():
    assert same_but_for_rounding(0.1 + 0.2, 0.3)
    assert same_but_for_rounding(0.0, 1e-9) and same_but_for_rounding(1e-9, 0.0)  # the bound is included
    assert not same_but_for_rounding(0.0, 2e-9) and not same_but_for_rounding(1 / 3, 0.3333333)


def test_full_credit_is_one_within_a_millionth():
    assert is_full_credit(1.0) and is_full_credit(0.3333333 * 3) and is_full_credit(1.0000005)
    assert not is_full_credit(0.99999) and not is_full_credit(1.00001)
    assert reaches_full_credit(0.9999995) and reaches_full_credit(1.5)
    assert not reaches_full_credit(0.99999)
