"""The prompt-cache measure: how much of each request repeats the previous one's start."""

from __future__ import annotations

from agent.accounting.tokenizer import count_messages, count_text
from agent.bench.prefix import prefix_use, shared_prefix_tokens

SYSTEM = {"role": "system", "content": "You are a careful math assistant. " * 20}
Q1 = {"role": "user", "content": "solve x^2 - 4 = 0"}
CALL = {"role": "assistant", "content": '{"tool": "solve", "equation": "x^2 - 4 = 0"}'}
RESULT = {"role": "user", "content": "Tool result (solve): x = -2, x = 2"}
Q2 = {"role": "user", "content": "now differentiate x^3"}


def test_an_appended_request_reuses_all_of_the_previous_one() -> None:
    first = [SYSTEM, Q1]
    second = [SYSTEM, Q1, CALL, RESULT]
    assert shared_prefix_tokens(first, second) == count_messages(first) - count_messages([])


def test_a_rewritten_middle_reuses_only_what_comes_before_it() -> None:
    before = [SYSTEM, Q1, CALL, RESULT, Q2]
    folded = [{"role": "system", "content": SYSTEM["content"] + "\n- x^2 - 4 = 0 -> x = ±2"}, Q2]
    shared = shared_prefix_tokens(before, folded)
    # The system text is shared up to where the summary line was added, nothing after it.
    assert count_text(SYSTEM["content"]) <= shared < count_messages(folded)
    assert shared_prefix_tokens([Q2], [Q1]) < count_messages([Q1])


def test_run_totals_weigh_by_tokens_and_price_the_cached_part() -> None:
    requests = [[SYSTEM, Q1], [SYSTEM, Q1, CALL, RESULT], [SYSTEM, Q2]]
    use = prefix_use(requests)
    assert use.prompt_tokens == sum(count_messages(r) for r in requests)
    assert 0 < use.reused_tokens < use.prompt_tokens and 0 < use.share < 1
    assert use.weighted_cost(1.0) == use.prompt_tokens
    assert use.weighted_cost(0.1) == use.prompt_tokens - 0.9 * use.reused_tokens
    assert prefix_use([]).share == 0.0
