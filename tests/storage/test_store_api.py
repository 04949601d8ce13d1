"""What the service asks of a store, on both backends: owners, titles, deletion, one lock
per session, versioned writes and the keys of answered turns; SQL-looking names are names."""

from __future__ import annotations

import pytest

from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.runtime.process import checkpoint_hook
from agent.storage.records import NoSuchSession, SessionBusy, StaleSession
from agent.testing.in_process import InProcessModel
from agent.testing.replies import done
from tests.support.databases import Backend

SQL_LIKE = "x'); DROP TABLE sessions; --"


def agent_on(store, name: str, replies: list[str]):
    loaded = store.load(name)
    model = InProcessModel(replies)
    model.ledger = loaded.ledger
    agent = Agent(model, make_strategy("none"), session=loaded.session)
    writer = store.writer(name, loaded)
    agent.on_checkpoint = checkpoint_hook(writer, agent)
    return agent, writer


def test_owners_titles_renames_and_deletes(backend: Backend) -> None:
    store = backend.store()
    assert store.create("a", "none", owner="alice", title="Homework")
    assert store.create("b", "none", owner="bob")
    assert store.create("c", "none")
    assert not store.create("a", "window", owner="bob")  # taken: nothing changes
    assert [i.name for i in store.sessions(owner="alice")] == ["a"]
    assert [i.name for i in store.sessions(owner=None)] == ["c"]
    assert {i.name for i in store.sessions()} == {"a", "b", "c"}
    store.rename("a", "Quadratics")
    assert store.info("a").title == "Quadratics" and store.info("a").owner == "alice"
    agent, _ = agent_on(store, "a", [done("ok")])
    agent.run_turn("hello")
    store.delete("a")
    assert store.info("a") is None
    with pytest.raises(NoSuchSession):
        store.load("a")
    with pytest.raises(NoSuchSession):
        store.delete("a")


def test_one_lock_per_session_within_a_process_too(backend: Backend) -> None:
    store = backend.store()
    store.create("s", "none")
    with store.lock("s"):
        with pytest.raises(SessionBusy):
            store.lock("s")
        with store.lock("other"):  # another session is free
            pass
    store.lock("s").release()  # released: free again


def test_a_write_over_a_version_someone_else_moved_on_is_refused(backend: Backend) -> None:
    store = backend.store()
    store.create("v", "none")
    first, first_writer = agent_on(store, "v", [done("one")])
    second, second_writer = agent_on(store, "v", [done("two")])
    first.run_turn("first")
    assert first_writer.last_error is None and store.version("v") == first_writer.version
    second.run_turn("second")  # loaded before the first saved: its write must not land
    assert second_writer.last_error is not None and "changed elsewhere" in second_writer.last_error
    with pytest.raises(StaleSession):
        second_writer.save(second.session, second.model.ledger, "none", True)
    texts = [getattr(e, "text", "") for e in store.load("v").session.transcript.entries]
    assert texts == ["first", "one"]


def test_an_answered_turn_is_found_by_its_key(backend: Backend) -> None:
    store = backend.store()
    store.create("k", "none")
    agent, writer = agent_on(store, "k", [done("answered"), "not json"])
    writer.begin_turn("key-1", agent.session)
    agent.run_turn("question")
    turn, entries = store.finished_turn("k", "key-1")
    assert turn == 1 and [e.kind for e in entries] == ["user", "assistant"]
    writer.begin_turn("key-2", agent.session)
    agent.run_turn("this one fails")  # a failed turn is not kept: a retry should run again
    assert store.finished_turn("k", "key-2") is None
    assert store.finished_turn("k", "unknown") is None


def test_sql_looking_names_and_titles_are_only_text(backend: Backend) -> None:
    store = backend.store()
    assert store.create(SQL_LIKE, "none", owner=SQL_LIKE, title=SQL_LIKE)
    agent, _ = agent_on(store, SQL_LIKE, [done("fine")])
    agent.run_turn(SQL_LIKE)
    (info,) = store.sessions(owner=SQL_LIKE)
    assert (info.name, info.title, info.turns) == (SQL_LIKE, SQL_LIKE, 1)
    assert len(store.sessions()) == 1
