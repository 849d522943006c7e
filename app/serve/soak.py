"""Load and latency figures for `koloda serve --http`, from its own clients.

    python -m koloda.serve.soak                         # 10,000 requests, 8 clients
    python -m koloda.serve.soak --latency --moves 100   # agent moves with ms=200

Without `--url` it starts a server (`koloda serve --http --port 0`) and reads the
resident memory of that server and its worker processes from /proc at the start and at
the end.  Every answer is checked; a wrong one, or any 5xx status, is counted as a
failure.  One request in seven is hostile (koloda.soak_hostile: paths as policies, work
beyond the limits, games that cannot be built, ids that are not strict JSON, foreign
pages, disconnects mid-body) and must get its documented error.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

from koloda.protocol.client import Client
from koloda.protocol.handler import VERSION
from koloda.serve import hostile as soak_hostile

#: the share of requests that are hostile, and of new sessions with a game string of
#: their own (each one a new entry in the cache of games, `games.load_game`)
HOSTILE = 1 / 7
DISTINCT_GAMES = 0.2


@dataclass
class SoakFigures:
    requests: int = 0
    failures: list = field(default_factory=list)
    server_errors: int = 0
    state_ms: list = field(default_factory=list)
    hostile: int = 0
    seconds: float = 0.0
    rss_start_kib: int | None = None
    rss_end_kib: int | None = None
    rss_peak_kib: int | None = None

    def summary(self) -> dict:
        ordered = sorted(self.state_ms)
        return {
            "requests": self.requests, "hostile": self.hostile,
            "failures": len(self.failures),
            "server_errors_5xx": self.server_errors, "seconds": round(self.seconds, 2),
            "requests_per_second": round(self.requests / self.seconds, 1) if self.seconds else None,
            "state_p50_ms": round(_percentile(ordered, 50), 2) if ordered else None,
            "state_p99_ms": round(_percentile(ordered, 99), 2) if ordered else None,
            "rss_start_kib": self.rss_start_kib, "rss_peak_kib": self.rss_peak_kib,
            "rss_end_kib": self.rss_end_kib,
            "first_failures": self.failures[:5],
        }


def _percentile(ordered: list, p: float) -> float:
    index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


class _Checker:
    """One soak client: a Durak session at a time, requests of every kind, each answer
    checked against what the client knows."""

    def __init__(self, url: str, seed: int, figures: SoakFigures, lock: threading.Lock):
        self.client = Client.http(url)
        self.raw = soak_hostile.Raw(url)
        self.rng = random.Random(seed)
        self.figures = figures
        self.lock = lock
        self.session = None
        self.view = None

    def run(self, count: int) -> None:
        for _ in range(count):
            try:
                problem = self.step()
            except Exception as err:      # a broken connection or reply is a failure too
                problem = f"{type(err).__name__}: {err}"
            status = self.client.transport.last_status
            with self.lock:
                self.figures.requests += 1
                if status is not None and status >= 500:
                    self.figures.server_errors += 1
                if problem:
                    self.figures.failures.append(problem)
        self.client.close()

    def step(self) -> str | None:
        client, rng = self.client, self.rng
        if rng.random() < HOSTILE:
            with self.lock:
                self.figures.hostile += 1
            return soak_hostile.pick(rng)(client, self.raw, rng)
        if self.session is None:
            game = "durak"
            if rng.random() < DISTINCT_GAMES:
                game = f"durak(max_moves={rng.randrange(200, 100_000)})"
            reply = client.send({"type": "new", "game": game, "seats": [0],
                                 "seed": rng.randrange(10**6)})
            if not reply.get("ok") or reply["view"]["status"] != "play":
                return f"new: {reply}"
            self.session, self.view = reply["session"], reply["view"]
            return None
        pick = rng.random()
        if self.view["status"] == "over":
            reply = client.send({"type": "close", "session": self.session})
            self.session = None
            return None if reply.get("ok") else f"close: {reply}"
        if pick < 0.6:
            started = time.perf_counter()
            reply = client.send({"type": "state", "session": self.session})
            elapsed = (time.perf_counter() - started) * 1000
            with self.lock:
                self.figures.state_ms.append(elapsed)
            if not reply.get("ok") or reply["view"] != self.view:
                return f"state: {reply}"
            return None
        if pick < 0.85:
            if self.view.get("to_move") == 0:
                action = rng.choice(self.view["legal"])
                reply = client.send({"type": "observe", "session": self.session,
                                     "actions": [action]})
                if not reply.get("ok") or reply["events"][0]["action"] != action:
                    return f"observe {action}: {reply}"
            else:
                reply = client.send({"type": "move", "session": self.session,
                                     "agent": "random"})
                if (not reply.get("ok") or set(reply) & {"policy", "simulations", "thinking_ms"}
                        or reply["events"][0]["action"] != reply["action"]):
                    return f"move: {reply}"
            self.view = reply["view"]
            return None
        if pick < 0.9:
            reply = client.send({"type": "state", "session": "f" * 16})
            return soak_hostile.expect("unknown session", reply, "unknown_session")
        if pick < 0.95:
            reply = client.send_text('{"type": "state", "session": ')
            return soak_hostile.expect("bad json", reply, "bad_json")
        reply = client.send({"type": "hello"})
        return None if reply.get("protocol") == VERSION else f"hello: {reply}"



def run_soak(url: str, requests: int, clients: int, rss=None, seed: int = 1) -> SoakFigures:
    """`requests` requests from `clients` threads; `rss()` reads the server's memory."""
    figures = SoakFigures()
    lock = threading.Lock()
    figures.rss_start_kib = rss() if rss else None
    per_client = [requests // clients + (i < requests % clients) for i in range(clients)]
    checkers = [_Checker(url, seed * 1000 + i, figures, lock) for i in range(clients)]
    threads = [threading.Thread(target=c.run, args=(n,)) for c, n in zip(checkers, per_client)]
    done = threading.Event()
    peak = [figures.rss_start_kib or 0]

    def watch_memory():
        while not done.wait(0.2):
            peak[0] = max(peak[0], rss() or 0)

    watcher = threading.Thread(target=watch_memory) if rss else None
    started = time.perf_counter()
    for thread in threads + ([watcher] if watcher else []):
        thread.start()
    for thread in threads:
        thread.join()
    figures.seconds = time.perf_counter() - started
    done.set()
    if watcher:
        watcher.join()
        figures.rss_end_kib = rss()
        figures.rss_peak_kib = max(peak[0], figures.rss_end_kib or 0)
    return figures


def run_move_latency(url: str, moves: int, ms: int, agent: str = "ismcts") -> dict:
    """`moves` agent moves (`move` for the opponent, `hint` for the app's seat) with a
    budget of `ms`: the wall time of each request as the client sees it, and the agent's
    own thinking time (which only hints show)."""
    client = Client.http(url, timeout=ms / 1000 + 30)
    wall, thinking = [], []
    seed = 0
    view = None
    while len(wall) < moves:
        if view is None or view["status"] == "over":
            seed += 1
            reply = client.new("durak", seats=[0], seed=seed)
            session, view = reply["session"], reply["view"]
        kind = "hint" if view["to_move"] == 0 else "move"
        started = time.perf_counter()
        reply = client.request(kind, session=session, agent=agent, ms=ms, apply=True)
        elapsed = (time.perf_counter() - started) * 1000
        view = reply["view"]
        searched = kind == "hint" and len(reply["policy"]) > 1
        if kind == "move" or searched:     # a forced hint answers at once: not counted
            wall.append(elapsed)           # (a move waits out its budget, forced or not)
        if searched:
            thinking.append(reply["thinking_ms"])
    client.close()
    ordered = sorted(wall)
    return {"moves": len(wall), "ms": ms, "agent": agent,
            "wall_p50_ms": round(statistics.median(ordered), 1),
            "wall_p99_ms": round(_percentile(ordered, 99), 1),
            "wall_max_ms": round(ordered[-1], 1),
            "overhead_p99_ms": round(_percentile(ordered, 99) - ms, 1),
            "thinking_p99_ms": round(_percentile(sorted(thinking), 99), 1)}


def rss_of(pid: int) -> int | None:
    """Resident memory of a process and its children (the worker processes) in KiB
    (Linux), or None."""
    try:
        with open(f"/proc/{pid}/status") as status:
            own = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            children = [int(child) for child in listing.read().split()]
    except (OSError, StopIteration):
        return None
    return own + sum(rss_of(child) or 0 for child in children)


def start_server(workers: int = 2, extra=(), stderr=None) -> tuple[subprocess.Popen, str]:
    """`koloda serve --http --port 0` as a child process, and its URL once it listens and
    has prepared its agents (so no move measured waits for that); `stderr` is where its
    log goes (a file; by default this process's stderr)."""
    process = subprocess.Popen([sys.executable, "-m", "koloda", "serve", "--http", "--port", "0",
                                "--workers", str(workers), *extra],
                               stdout=subprocess.PIPE, stderr=stderr, text=True)
    line = process.stdout.readline()
    if "http://" not in line:
        process.kill()
        raise RuntimeError(f"koloda serve did not start: {line!r}")
    url = line.split()[-1]
    with Client.http(url) as client:
        client.wait_until_ready()
    return process, url


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m koloda.serve.soak", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--latency", action="store_true", help="time agent moves instead")
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--ms", type=int, default=200)
    args = parser.parse_args(argv)
    process = None
    url = args.url
    log = tempfile.TemporaryFile("w+")          # the server's stderr, counted at the end
    if url is None:
        process, url = start_server(args.workers, stderr=log)
    try:
        if args.latency:
            print(json.dumps(run_move_latency(url, args.moves, args.ms)))
        else:
            rss = (lambda: rss_of(process.pid)) if process else None
            figures = run_soak(url, args.requests, args.clients, rss)
            summary = figures.summary()
            if process is not None:
                log.seek(0)
                lines = log.read().splitlines()
                summary.update(server_log_lines=len(lines),
                               server_log_bytes=sum(len(line) + 1 for line in lines))
            print(json.dumps(summary))
            return 1 if figures.failures or figures.server_errors else 0
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
