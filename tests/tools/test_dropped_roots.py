"""What solve says of the roots a domain leaves out."""

from __future__ import annotations

import tools


def test_a_long_root_the_domain_leaves_out_is_named_by_its_decimal() -> None:
    """A cubic with one real root: its two complex roots in radicals would be three lines."""
    result = tools.solve("t^3 - 6t^2 + 9t + 1 = 0", domain="real")
    assert result.ok and len(result.value) == 1 and result.value[0].is_real
    assert "t ≈ 3.052 - 0.5652*I, t ≈ 3.052 + 0.5652*I are not real" in result.text
    short = tools.solve("x^3 - 1 = 0", domain="real")
    assert "x = -1/2 - sqrt(3)*I/2 ≈ -0.5 - 0.866*I" in short.text  # short: exact kept
