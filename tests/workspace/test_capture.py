"""The person's math is read as notation: what parses is kept, prose never is."""

from __future__ import annotations

import pytest
import sympy as sp

from agent.workspace.capture import Captured, capture


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("solve x^2 + 5x + 6 = 0", [Captured("equation", "x**2 + 5*x + 6 = 0")]),
        ("what are the roots of x² - 5x + 6?", [Captured("expression", "x**2 - 5*x + 6")]),
        ("Find the derivative of: 2*x^2 + 4*x - 6", [Captured("expression", "2*x**2 + 4*x - 6")]),
        ("differentiate sin(x)*x^2 wrt x", [Captured("expression", "x**2*sin(x)")]),
        ("solve 2(x+1) = 8", [Captured("equation", "2*x + 2 = 8")]),
        # two letters beside an operator are a product, not a word
        ("find dy/dx if x^2 + xy + y^2 = 7", [Captured("equation", "x**2 + x*y + y**2 = 7")]),
        ("solve ab + 2 = 0 for a", [Captured("equation", "a*b + 2 = 0")]),
    ],
)
def test_equations_and_expressions_in_a_sentence(text: str, expected: list[Captured]) -> None:
    assert capture(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "evaluate that at x = 3",  # a point, not an equation
        "I'm Ana, by the way",
        "integrate it from 0 to 1",
        "plug the largest root of the first equation into the last polynomial",
        "what's 3*4 - 7?",  # arithmetic: its result becomes an item when a tool computes it
        "the second one, please",
        "go to x = 3 if it is at most 5",  # two-letter words beside numbers and letters
    ],
)
def test_prose_points_and_bare_numbers_are_not_items(text: str) -> None:
    assert capture(text) == []


def test_a_definition_and_its_use_in_one_message() -> None:
    assert capture("Let g(t) = 3t^2 - t. What is g(-2)?") == [
        Captured("function", "3*t**2 - t", "g", ("t",))
    ]


@pytest.mark.parametrize(
    "text",
    [
        "A cart's position is p(t) = 2t^3 + 1 metres. What is its speed at t = 2 s?",
        "Let f(x) = x^2 - 4. Find f at x = 3 m, and at x = 2y.",
    ],
)
def test_a_value_for_a_known_functions_variable_is_a_point_not_a_new_function(text: str) -> None:
    (defined,) = capture(text)
    assert defined.kind == "function" and defined.name in "pf"


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("The height is h(t) = -5t² + 20t + 25 m, where t is in seconds.", "-5*t**2 + 20*t + 25"),
        ("v(t) = 3t + 2.5 s", "3*t + 2.5"),
        # Not a unit: the letter is the parameter, or is used in the body already.
        ("f(m) = m^2 + 2 m", "m**2 + 2*m"),
        ("g(x) = a x^2 + 2 a", "a*x**2 + 2*a"),
    ],
)
def test_a_unit_after_a_definitions_last_number_is_not_a_variable(text: str, body: str) -> None:
    (defined,) = capture(text)
    assert (
        defined.kind == "function" and sp.simplify(sp.sympify(defined.body) - sp.sympify(body)) == 0
    )


def test_a_chained_equality_is_the_definition_and_the_equation() -> None:
    assert capture("h(t) = -5t^2 + 20t + 1 = 6, solve for t") == [
        Captured("function", "-5*t**2 + 20*t + 1", "h", ("t",)),
        Captured("equation", "-5*t**2 + 20*t + 1 = 6"),
    ]
    # set to zero, the equation is h's own zeros: h alone is the item
    assert capture("h(t) = -5t^2 + 20t + 1 = 0, solve for t") == [
        Captured("function", "-5*t**2 + 20*t + 1", "h", ("t",))
    ]


def test_a_known_function_set_to_a_value_is_an_equation_on_it() -> None:
    assert capture("when is h(t) = 5?", {"h": "t**2 - 4"}) == [Captured("equation", "t**2 - 4 = 5")]
    assert capture("when is h(t) = 0?", {"h": "t**2 - 4"}) == []


def test_a_capital_letter_beside_one_piece_of_math_labels_it() -> None:
    labelled = Captured("equation", "y**2 - 7*y + 10 = 0", "Q")
    assert capture("solve y^2 - 7y + 10 = 0 and call it Q") == [labelled]
    assert capture("Q: y^2 - 7y + 10 = 0. Find its roots") == [labelled]
    # words, not labels: "I", an "A" opening a sentence, a letter beside two pieces of math
    assert capture("I think y^2 - 7y + 10 = 0 has two roots")[0].name is None
    assert capture("A root of y^2 - 7y + 10 = 0, please")[0].name is None
    assert all(c.name is None for c in capture("Is x^2 = 4 like x^2 - 4 = 0 in B?"))


def test_a_letter_naming_an_expression_is_a_name_the_person_gave() -> None:
    assert capture("call it P = x^3 - 2x") == [Captured("function", "x**3 - 2*x", "P", ("x",))]


def test_decimals_are_exact_and_a_sentence_end_is_not_part_of_the_math() -> None:
    (defined,) = capture("a ball: h(t) = -4.9t^2 + 20t + 1.5. When does it land?")
    assert defined == Captured("function", "-49*t**2/10 + 20*t + 3/2", "h", ("t",))


def test_a_product_with_a_bracket_is_not_a_call_unless_the_name_is_a_function() -> None:
    assert capture("x(x-1) = 6") == [Captured("equation", "x*(x - 1) = 6")]
    assert capture("f(2) + 1", {"f": "x**2"}) == []


def test_a_word_in_brackets_is_not_a_product_of_letters() -> None:
    assert capture("Tool result (solve): x = 42") == []
    assert capture("(roots) of x^2 - 4") == [Captured("expression", "x**2 - 4")]
    # a long name defined by the person is a name, not a word
    assert capture("cost(x) = 5x + 3")[0].name == "cost"


@pytest.mark.parametrize(
    ("text", "name", "body"),
    [
        # an aside in brackets after the math: words, or units cut at a comma
        (
            "height y(t) = -5t^2 + 15t + 20 (metres, t in seconds). when?",
            "y",
            "-5*t**2 + 15*t + 20",
        ),
        ("s(t) = t^3 - 6t^2 + 9t (metres, seconds) at rest?", "s", "t**3 - 6*t**2 + 9*t"),
        ("peak height please: h = -4.9t^2 + 19.6t + 2 (m, s)", "h", "-49*t**2/10 + 98*t/5 + 2"),
        ("speed v(t) = 3t + 2 (m/s)", "v", "3*t + 2"),
        # brackets that are math stay math
        ("h = 2 (t + 1)", "h", "2*t + 2"),
    ],
)
def test_an_aside_in_brackets_after_the_math_is_not_part_of_it(
    text: str, name: str, body: str
) -> None:
    (defined,) = capture(text)
    assert (defined.kind, defined.name) == ("function", name)
    assert sp.simplify(sp.sympify(defined.body) - sp.sympify(body)) == 0


def test_numbers_and_lone_letters_with_no_operator_are_prose() -> None:
    assert capture("a ball is kicked off a 20 m platform") == []
    text = "A diver jumps from a 10 m board; her height is -5t^2 + 5t + 10 metres"
    assert capture(text) == [Captured("expression", "-5*t**2 + 5*t + 10")]


def test_a_capital_letter_after_the_math_is_its_label_not_a_factor() -> None:
    assert capture("call the equation 3y - 12 = 0 R and solve it") == [
        Captured("equation", "3*y - 12 = 0", "R")
    ]
    assert capture("integrate to x^3/3 + C") == [Captured("expression", "C + x**3/3")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Leibniz's operator is an operation, not a product of letters to keep
        ("what is dy/dx?", []),
        ("find dy/dx for y = x^3 + 2x", [Captured("function", "x**3 + 2*x", "y", ("x",))]),
        ("d²y/dx² of y = x^4", [Captured("function", "x**4", "y", ("x",))]),
        ("dv/dt at t = 2", []),
        # the math it applies to, and the math it is said to equal, are the person's math
        ("compute d/dx (x^3 + 2x)", [Captured("expression", "x**3 + 2*x")]),
        ("d/dx x^3", [Captured("expression", "x**3")]),
        ("d^2/dt^2 (t^4)", [Captured("expression", "t**4")]),
        ("dy/dx = 3x^2, find y", [Captured("expression", "3*x**2")]),
    ],
)
def test_leibniz_notation_is_an_operation_not_math_to_store(
    text: str, expected: list[Captured]
) -> None:
    assert capture(text) == expected


@pytest.mark.parametrize(
    ("text", "known", "expected"),
    [
        # a function's inverse is an operation on it, never `x/f`
        (
            "f(x) = sqrt(x - 3). find f^-1(x)",
            {},
            [Captured("function", "sqrt(x - 3)", "f", ("x",))],
        ),
        ("find g^(-1)(x) for g(x) = 2x + 1", {}, [Captured("function", "2*x + 1", "g", ("x",))]),
        ("what is f⁻¹(2)?", {"f": "x + 1"}, []),
        ("and k^-1(5) + 1", {"k": "2*x"}, []),
        # a letter's power stays math: `x^-1(x + 1)` is a product
        ("expand x^-1(x + 1)", {}, [Captured("expression", "(x + 1)/x")]),
    ],
)
def test_a_functions_inverse_is_an_operation_not_math_to_store(
    text: str, known: dict[str, str], expected: list[Captured]
) -> None:
    assert capture(text, known) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The area is 52 cm². What is the width?",
        "a field of 52 cm^2",
        "it falls at 9.8 m/s^2 down",
        "3 m^2 of paint",
        "a speed of 25 m/s",
        "The length of a rectangle is 9 metres more than its width. Its area is 52 m². Width?",
        "a force of 20 N on x^2 - 4 = 0",  # 20 N is no label of the equation
    ],
)
def test_a_measurement_is_not_letters_multiplied(text: str) -> None:
    assert all(c.name is None and not {"c", "m", "s", "N"} & set(c.body) for c in capture(text))
    assert all("52" not in c.body and "9.8" not in c.body for c in capture(text))


def test_a_value_with_its_unit_is_a_value_and_math_in_the_letters_stays_math() -> None:
    assert capture("the ball is at x = 3 m") == []  # a point, not the equation x = 3*m
    assert capture("when is h(t) = 150 m?", {"h": "-5*t**2 + 60*t"}) == [
        Captured("equation", "-5*t**2 + 60*t = 150")
    ]
    # an operator after the letter, or the letter as math elsewhere: a term
    assert capture("solve 3 m + 2 = 11") == [Captured("equation", "3*m + 2 = 11")]
    assert capture("solve 5 s^2 = 20") == [Captured("equation", "5*s**2 = 20")]


def test_a_measurement_ending_a_sentence_leaves_the_next_sentence_its_math() -> None:
    # `m/s^2.` ends a sentence (no decimal point): h is h, not a product with the units
    text = "A ball is thrown up at 25 m/s and gravity is 9.8 m/s^2. h(t) = 25t - 4.9t^2"
    assert capture(text) == [Captured("function", "-49*t**2/10 + 25*t", "h", ("t",))]


@pytest.mark.parametrize(
    ("text", "bodies"),
    [
        ("k and the 2nd derivative", []),
        ("what's the smaller root of the 1st equation", []),
        ("the 3rd and 4th roots", []),
        ("the 2nd derivative of 3x^2", ["3*x**2"]),
        ("the 21ST time: 2n + d = 5", ["d + 2*n = 5"]),
    ],
)
def test_an_ordinal_written_with_digits_is_a_word_not_letters_multiplied(
    text: str, bodies: list[str]
) -> None:
    assert [c.body for c in capture(text)] == bodies
