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


def test_equations_in_one_unknown_with_no_common_solution_are_each_answered() -> None:
    # two problems sent as one ("solve x^2 - 16 = 0 and also x^2 - 25 = 0")
    result = tools.solve_system(["x^2 - 16 = 0", "x^2 - 25 = 0"])
    assert result.ok and result.value == []
    assert result.text == (
        "no value solves them all at once; x**2 - 16 = 0 alone: x = -4, x = 4; "
        "x**2 - 25 = 0 alone: x = -5, x = 5"
    )
    # each as the solve tool answers it alone
    assert tools.solve_system(["x^2 + 1 = 0", "x = 2"]).text.endswith(
        "x**2 + 1 = 0 alone: " + tools.solve("x^2 + 1 = 0").text + "; x = 2 alone: x = 2"
    )


def test_a_common_solution_or_two_unknowns_are_answered_as_before() -> None:
    assert tools.solve_system(["x + 1 = 3", "2x = 4"]).text == "x = 2"
    contradicting = tools.solve_system(["x + y = 1", "x + y = 2"])
    assert contradicting.text == "no solution (the equations contradict each other)"
