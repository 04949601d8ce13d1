"""`math-agent bench serve`: many sessions through real `serve` workers on one PostgreSQL.

Loopback only, bounded in count and time, with the scripted model (`agent.testing.serve
--script tagged`, a fixed time per reply) so the service, not a model, is measured. Each
session sends its turns one after another (`TAG: solve EQUATION`, an Idempotency-Key per
turn); a client that loses its worker or gets 503/409 retries the same turn on another, as a
load balancer would. At the end every transcript is read back and checked: each message
answered exactly once, in order, by its own answer (the tag), its steps together.
`--fault kill-worker` SIGKILLs a worker when 40% of the turns are done; `--fault
restart-db` stops PostgreSQL as a crash would and starts it again 3 s later.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.testing.processes import child_env, free_port

TOKEN = "bench-token-0123456789abcdef"
HEADERS = {"Authorization": f"Bearer {TOKEN}"}


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    added: list[float] = field(default_factory=list)
    model: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    broken: int = 0  # connections lost mid-request (a killed worker)
    retries: int = 0
    requests: int = 0
    done_turns: int = 0


class Worker:
    def __init__(self, model_url: str, database_url: str, log: Path, max_turns: int) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.alive = True
        self._log = log.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "agent.app.cli", "serve", "--port", str(self.port),
             "--base-url", model_url, "--max-turns", str(max_turns), "--tool-workers", "2"],
            stdout=subprocess.DEVNULL, stderr=self._log,
            env=child_env(MATH_AGENT_DATABASE_URL=database_url, MATH_AGENT_TOKENS=f"bench:{TOKEN}",
                     MATH_AGENT_RATE_LIMIT="1000000/minute"),
        )  # fmt: skip

    def wait_ready(self, seconds: float = 60) -> None:
        import httpx

        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("a serve worker exited while starting")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError("a serve worker did not start in time")

    def kill(self) -> None:
        self.alive = False
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self._log.close()


def _events(text: str) -> list[tuple[str, dict[str, Any]]]:
    found = []
    for frame in text.split("\n\n"):
        lines = frame.splitlines()
        names = [x[7:] for x in lines if x.startswith("event: ")]
        data = "".join(x[6:] for x in lines if x.startswith("data: "))
        if names:
            found.append((names[0], json.loads(data)))
    return found


def _question(session: int, turn: int) -> tuple[str, str]:
    root = turn + session % 7 + 1
    tag = f"s{session}-t{turn}"
    return tag, f"{tag}: solve x^2 - {root * root} = 0"


async def _send(client: Any, workers: list[Worker], session: int, sid: str, turn: int,
                stats: Stats, deadline: float) -> None:  # fmt: skip
    import httpx

    tag, text = _question(session, turn)
    attempt = 0
    while time.monotonic() < deadline:
        live = [w for w in workers if w.alive]
        worker = live[(session + attempt) % len(live)]
        attempt += 1
        started = time.perf_counter()
        stats.requests += 1
        try:
            response = await client.post(
                f"{worker.url}/api/sessions/{sid}/messages", json={"text": text},
                headers={**HEADERS, "Idempotency-Key": tag}, timeout=60,
            )  # fmt: skip
        except httpx.HTTPError:
            stats.broken += 1
            stats.retries += 1
            await asyncio.sleep(0.2)
            continue
        stats.statuses[response.status_code] += 1
        if response.status_code != 200:
            stats.retries += 1
            await asyncio.sleep(float(response.headers.get("retry-after", "0.3")))
            continue
        found = _events(response.text)
        answers = [d for e, d in found if e == "answer"]
        done = [d for e, d in found if e == "done"]
        if answers and done and done[0].get("ok"):
            elapsed = time.perf_counter() - started
            if not done[0].get("replayed"):
                stats.latencies.append(elapsed)
                stats.model.append(done[0]["model_seconds"])
                stats.added.append(elapsed - done[0]["model_seconds"])
            stats.done_turns += 1
            return
        stats.retries += 1  # an error event (e.g. not saved while the database was down)
        await asyncio.sleep(0.5)
    raise TimeoutError(f"{tag} was not answered before the bench's time limit")


async def _session(client: Any, workers: list[Worker], session: int, turns: int, stats: Stats,
                   deadline: float) -> str:  # fmt: skip
    import httpx

    while True:
        worker = [w for w in workers if w.alive][session % len([w for w in workers if w.alive])]
        try:
            response = await client.post(
                f"{worker.url}/api/sessions", json={"title": f"s{session}", "strategy": "none"},
                headers=HEADERS, timeout=30,
            )  # fmt: skip
            stats.statuses[response.status_code] += 1
            if response.status_code == 201:
                sid = response.json()["id"]
                break
        except httpx.HTTPError:
            stats.broken += 1
        await asyncio.sleep(0.3)
    for turn in range(1, turns + 1):
        await _send(client, workers, session, sid, turn, stats, deadline)
    return sid


def check(transcript: list[dict[str, Any]], session: int, turns: int) -> dict[str, int]:
    """Lost, duplicated and interleaved messages of one session, from its transcript."""
    expected = [_question(session, t)[0] for t in range(1, turns + 1)]
    answered: list[str] = []
    interleaved = interrupted = 0
    current: str | None = None
    for entry in transcript:
        kind = entry["kind"]
        if kind == "user":
            current = entry["text"].split(":", 1)[0]
        elif kind == "assistant":
            tag = entry["text"].split(":", 1)[0]
            interleaved += tag != current
            answered.append(tag)
            current = None
        elif kind == "error" and "interrupted" in entry["text"]:
            interrupted += 1
        elif kind in ("tool_call", "tool_result") and current is None:
            interleaved += 1
    counts = Counter(answered)
    return {
        "lost": sum(1 for tag in expected if counts[tag] == 0),
        "duplicated": sum(n - 1 for n in counts.values() if n > 1),
        "interleaved": interleaved + (answered != sorted(set(answered), key=expected.index)),
        "interrupted_attempts": interrupted,
    }


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def _run(args: argparse.Namespace, workers: list[Worker], fault: Any) -> dict[str, Any]:
    import httpx

    stats = Stats()
    total = args.sessions * args.turns
    deadline = time.monotonic() + args.timeout
    limits = httpx.Limits(
        max_connections=args.sessions * 2, max_keepalive_connections=args.sessions
    )
    async with httpx.AsyncClient(limits=limits) as client:
        started = time.perf_counter()

        async def faults() -> None:
            while stats.done_turns < total * 0.4:
                await asyncio.sleep(0.05)
            await asyncio.to_thread(fault)

        injector = asyncio.create_task(faults()) if fault is not None else None
        sids = await asyncio.gather(
            *(
                _session(client, workers, s, args.turns, stats, deadline)
                for s in range(args.sessions)
            )
        )
        wall = time.perf_counter() - started
        if injector is not None:
            await injector
        reader = next(w for w in workers if w.alive)
        totals: Counter[str] = Counter()
        for session, sid in enumerate(sids):
            response = await client.get(
                f"{reader.url}/api/sessions/{sid}/transcript", headers=HEADERS
            )
            totals.update(check(response.json()["entries"], session, args.turns))
    server_errors = sum(
        n for status, n in stats.statuses.items() if status >= 500 and status != 503
    )
    return {
        "sessions": args.sessions,
        "turns_per_session": args.turns,
        "workers": args.workers,
        "fault": args.fault,
        "model_delay_ms": args.delay_ms,
        "turns_answered": stats.done_turns,
        "wall_seconds": round(wall, 2),
        "turns_per_second": round(stats.done_turns / wall, 2),
        "http_requests_per_second": round(stats.requests / wall, 2),
        "latency_p50_s": round(_percentile(stats.latencies, 0.5), 3),
        "latency_p95_s": round(_percentile(stats.latencies, 0.95), 3),
        "model_p50_s": round(statistics.median(stats.model) if stats.model else 0, 3),
        "added_p50_s": round(_percentile(stats.added, 0.5), 3),
        "added_p95_s": round(_percentile(stats.added, 0.95), 3),
        "lost": totals["lost"],
        "duplicated": totals["duplicated"],
        "interleaved": totals["interleaved"],
        "interrupted_attempts_kept": totals["interrupted_attempts"],
        "responses_5xx_not_503": server_errors,
        "responses_503": stats.statuses[503],
        "responses_409": stats.statuses[409],
        "connections_lost": stats.broken,
        "retries": stats.retries,
    }


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="math-agent bench serve", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--delay-ms", type=float, default=50.0, help="the model's time per reply")
    parser.add_argument("--fault", choices=("none", "kill-worker", "restart-db"), default="none")
    parser.add_argument("--max-turns", type=int, default=32, help="turns a worker runs at once")
    parser.add_argument("--timeout", type=float, default=600.0, help="give up after this long")
    parser.add_argument("--json", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from agent.testing.postgres import PostgresServer, unavailable_reason

    if (reason := unavailable_reason()) is not None:
        print(f"bench serve needs PostgreSQL: {reason}.", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="math-agent-bench-serve-"))
    # A folder of its own: the server runs as the postgres user, who cannot enter `folder`.
    database = PostgresServer(Path(tempfile.mkdtemp(prefix="math-agent-bench-pg-"))).start()
    model = subprocess.Popen(
        [sys.executable, "-m", "agent.testing.serve", "--script", "tagged",
         "--delay-ms", str(args.delay_ms)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=child_env(),
    )  # fmt: skip
    workers: list[Worker] = []
    try:
        model_url = (model.stdout.readline() if model.stdout else "").strip()
        url = database.create_database()
        workers = [
            Worker(model_url, url, folder / f"worker{i}.log", args.max_turns)
            for i in range(args.workers)
        ]
        for worker in workers:
            worker.wait_ready()

        def restart_db() -> None:
            database.stop("immediate")
            time.sleep(3)
            database.start()

        fault = {"kill-worker": lambda: workers[0].kill(), "restart-db": restart_db}.get(args.fault)
        report = asyncio.run(_run(args, workers, fault))
    finally:
        for worker in workers:
            worker.stop()
        model.terminate()
        model.wait(10)
        database.remove()
        shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key:28} {value}")
    clean = not (report["lost"] or report["duplicated"] or report["interleaved"])
    return 0 if clean and report["responses_5xx_not_503"] == 0 else 1
