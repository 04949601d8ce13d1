"""Which of the embedded server's parallel slots a session's turn runs on.

llama.cpp keeps a prompt cache per slot: a conversation whose next request starts with the
prompt its slot holds is read from the cache (the `window` strategy relies on this), and one
that lands on a slot holding another conversation is read again from the start (tens of
seconds on a CPU). So a session goes back to the slot it last used while that slot is still
warm for it; a new or cold session takes a slot nobody waiting holds warm, the least recently
used first. With every slot busy, turns wait in order of arrival, and each waiting turn is
told its place in the queue as it changes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

# How long after its last turn a slot is still kept for its session when another wants one.
WARM_SECONDS = 600.0


class SlotTimeout(Exception):
    """No slot was free within the wait allowed."""


@dataclass
class _Waiter:
    session: str
    arrived: int
    on_wait: Callable[[int], None] | None = None
    told: int | None = field(default=None)


class SlotScheduler:
    """Hands out slot numbers 0..slots-1, one turn at a time per slot (thread-safe)."""

    def __init__(
        self,
        slots: int,
        warm_seconds: float = WARM_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if slots < 1:
            raise ValueError("at least one slot")
        self.slots = slots
        self.warm_seconds = warm_seconds
        self._clock = clock
        self._free = set(range(slots))
        # slot -> (session that last used it, when it was released)
        self._last: dict[int, tuple[str, float]] = {}
        self._queue: list[_Waiter] = []
        self._arrivals = 0
        self._changed = threading.Condition()

    def _warm_for(self, slot: int) -> str | None:
        last = self._last.get(slot)
        if last is None or self._clock() - last[1] > self.warm_seconds:
            return None
        return last[0]

    def _choose(self, waiter: _Waiter) -> int | None:
        """The slot `waiter` may take now, or None (caller holds the condition)."""
        own = [s for s in self._free if self._warm_for(s) == waiter.session]
        if own:
            return own[0]
        ahead = [w for w in self._queue if w.arrived < waiter.arrived]
        if any(self._choose_own_only(w) is None for w in ahead):
            return None  # an earlier arrival is still waiting for any slot: first come first
        waiting = {w.session for w in self._queue if w is not waiter}
        open_slots = [s for s in self._free if self._warm_for(s) not in waiting]
        if not open_slots:
            return None
        # Cold slots first, then the one whose session left longest ago.
        return min(
            open_slots,
            key=lambda s: (self._warm_for(s) is not None, self._last.get(s, ("", -1.0))[1]),
        )

    def _choose_own_only(self, waiter: _Waiter) -> int | None:
        own = [s for s in self._free if self._warm_for(s) == waiter.session]
        return own[0] if own else None

    def position(self, session: str) -> int | None:
        """1 for the next turn to get a slot, 2 for the one after it, ...; None if not waiting."""
        with self._changed:
            for place, waiter in enumerate(self._queue, 1):
                if waiter.session == session:
                    return place
        return None

    def acquire(
        self,
        session: str,
        on_wait: Callable[[int], None] | None = None,
        timeout: float | None = None,
    ) -> int:
        """A slot for one turn of `session`; `on_wait(place)` whenever its place changes."""
        deadline = None if timeout is None else self._clock() + timeout
        with self._changed:
            self._arrivals += 1
            waiter = _Waiter(session, self._arrivals, on_wait)
            self._queue.append(waiter)
            try:
                while (slot := self._choose(waiter)) is None:
                    self._tell(waiter)
                    remaining = None if deadline is None else deadline - self._clock()
                    if remaining is not None and remaining <= 0:
                        raise SlotTimeout(
                            f"No slot of the embedded model was free within {timeout:g} s."
                        )
                    self._changed.wait(remaining if remaining is not None else 1.0)
                self._free.discard(slot)
                return slot
            finally:
                self._queue.remove(waiter)
                self._changed.notify_all()

    def _tell(self, waiter: _Waiter) -> None:
        place = self._queue.index(waiter) + 1
        if waiter.on_wait is not None and place != waiter.told:
            waiter.told = place
            waiter.on_wait(place)

    def release(self, slot: int, session: str) -> None:
        with self._changed:
            self._last[slot] = (session, self._clock())
            self._free.add(slot)
            self._changed.notify_all()

    @contextmanager
    def slot(self, session: str, on_wait: Callable[[int], None] | None = None) -> Iterator[int]:
        taken = self.acquire(session, on_wait)
        try:
            yield taken
        finally:
            self.release(taken, session)

    def warm_sessions(self) -> dict[int, str]:
        """slot -> the session it is warm for (for diagnostics and tests)."""
        with self._changed:
            return {s: who for s in range(self.slots) if (who := self._warm_for(s)) is not None}
