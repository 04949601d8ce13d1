"""The embedded model serving several sessions: the slot scheduler (warm sessions keep their
slot, a queue in order of arrival with each place told), the server's parallel slots, and the
`id_slot` each request of a turn carries. No model is loaded: the server's configuration is
checked on llama.cpp's own parameter object, the requests on the scripted model."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest

from agent.llm.local.server_process import configure_slots, parse_args
from agent.llm.local.slots import SlotScheduler, SlotTimeout


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_warm_session_goes_back_to_its_slot_and_a_new_one_takes_a_cold_slot() -> None:
    clock = Clock()
    slots = SlotScheduler(3, warm_seconds=60, clock=clock)
    a = slots.acquire("a")
    slots.release(a, "a")
    clock.now = 1
    b = slots.acquire("b")
    assert b != a  # a cold slot, not a's warm one
    slots.release(b, "b")
    clock.now = 2
    assert slots.acquire("a") == a and slots.acquire("b") == b
    assert slots.warm_sessions() == {a: "a", b: "b"}


def test_with_every_slot_warm_the_least_recently_used_is_taken() -> None:
    clock = Clock()
    slots = SlotScheduler(2, warm_seconds=60, clock=clock)
    for at, name in ((0, "a"), (1, "b")):
        clock.now = at
        slots.release(slots.acquire(name), name)
    clock.now = 5
    taken = slots.acquire("c")
    assert slots.warm_sessions()[1 - taken] == "b"  # a's slot (older) went to c


def test_a_slot_cools_after_its_warm_time() -> None:
    clock = Clock()
    slots = SlotScheduler(1, warm_seconds=10, clock=clock)
    slots.release(slots.acquire("a"), "a")
    clock.now = 11
    assert slots.warm_sessions() == {}


def test_waiting_turns_queue_in_order_and_are_told_their_place() -> None:
    slots = SlotScheduler(1, warm_seconds=600)
    held = slots.acquire("busy")
    places: dict[str, list[int]] = {"x": [], "y": []}
    order: list[str] = []

    def wait(name: str) -> None:
        slot = slots.acquire(name, on_wait=places[name].append)
        order.append(name)
        time.sleep(0.05)
        slots.release(slot, name)

    first = threading.Thread(target=wait, args=("x",))
    first.start()
    while slots.position("x") is None:
        time.sleep(0.01)
    second = threading.Thread(target=wait, args=("y",))
    second.start()
    while slots.position("y") is None:
        time.sleep(0.01)
    assert (slots.position("x"), slots.position("y")) == (1, 2)
    slots.release(held, "busy")
    first.join(5)
    second.join(5)
    assert order == ["x", "y"]
    assert places == {"x": [1], "y": [2, 1]}


def test_a_session_waiting_for_its_warm_slot_gets_it_back() -> None:
    slots = SlotScheduler(2, warm_seconds=600)
    a = slots.acquire("a")
    slots.release(a, "a")
    other = slots.acquire("b")
    mine = slots.acquire("a")
    assert mine == a and other != a


def test_a_wait_can_be_bounded() -> None:
    slots = SlotScheduler(1)
    slots.acquire("a")
    with pytest.raises(SlotTimeout, match="No slot"):
        slots.acquire("b", timeout=0.1)


def test_the_server_runs_parallel_slots_each_with_a_whole_context() -> None:
    params = SimpleNamespace(n_parallel=1, n_ctx=0)
    configure_slots(params, 8192, 4)
    assert (params.n_parallel, params.n_ctx) == (4, 4 * 8192)
    args = parse_args(
        ["--model", "m", "--alias", "a", "--port", "1", "--ctx", "8192", "--threads", "2",
         "--max-tokens", "8", "--temperature", "0", "--leases", "l", "--parallel", "3"]
    )  # fmt: skip
    assert args.parallel == 3


def test_llama_cpp_takes_the_slot_settings() -> None:
    """On xllamacpp's own parameters (the `local` extra): the names exist, and the KV cache is
    split per slot (not unified), so each slot keeps its own conversation."""
    xllamacpp = pytest.importorskip("xllamacpp", reason="the `local` extra is not installed")
    params = xllamacpp.CommonParams()
    configure_slots(params, 8192, 4)
    assert (params.n_parallel, params.n_ctx, params.kv_unified) == (4, 32768, False)


def test_each_request_of_a_turn_carries_its_sessions_slot(tmp_path) -> None:
    """Through the process runtime: a turn of session s runs on its slot (`id_slot` in every
    request body), a later turn of s on the same one, another session on another."""
    from agent.llm.providers import Provider
    from agent.llm.replay import ScriptedResponder, serve
    from agent.runtime.options import RuntimeOptions
    from agent.runtime.process import ProcessRuntime
    from agent.testing.seed import seed_model

    with serve(ScriptedResponder(seed_model())) as server:
        provider = Provider("local", server.base_url, "m", None, "test", retries=False)
        runtime = ProcessRuntime(
            RuntimeOptions(local_slots=2, save=False), provider, [], object(), None
        )
        assert runtime.slots is not None
        first, second = runtime.new_agent(strategy="none"), runtime.new_agent(strategy="none")
        places: list[int] = []
        runtime.turn(first, "solve x^2 - 1 = 0", session="s")
        runtime.turn(second, "solve x^2 - 4 = 0", session="t", on_queue=places.append)
        runtime.turn(first, "solve x^2 - 9 = 0", session="s")
        slots = [body.get("id_slot") for body in server.requests]
        assert slots[:2] == slots[4:6] and slots[2] == slots[3] and slots[0] != slots[2]
        assert set(slots) == {0, 1} and places == []
