"""How solve_system reads the unknowns it is given: a string, a list, or a list whose one
string names several (a small model writes `["a, c"]` as often as `["a", "c"]`)."""

from __future__ import annotations

import pytest

import tools


@pytest.mark.parametrize(
    "variables",
    ["a, c", "a c", ["a", "c"], ["a, c"], ["a c"], ("a", "c, a")],
)
def test_every_way_of_naming_two_unknowns_solves_the_same_system(variables: object) -> None:
    result = tools.solve_system(["15a + 58c = 410", "42a + 16c = 416"], variables)
    assert result.ok and result.text == "a = 8, c = 5"


def test_the_order_given_is_the_order_of_the_answer() -> None:
    result = tools.solve_system(["x + y = 3", "x - y = 1"], ["y, x"])
    assert result.ok and result.text == "y = 1, x = 2"


@pytest.mark.parametrize("variables", [["x+y"], ["x, 2"], [["x"]]])
def test_a_list_item_that_is_not_names_is_still_refused(variables: object) -> None:
    result = tools.solve_system(["x + y = 3", "x - y = 1"], variables)
    assert not result.ok and result.text.endswith(".")
