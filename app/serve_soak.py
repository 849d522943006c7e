"""Load and latency figures for `koloda serve --http`, from its own clients.

    python -m koloda.serve_soak                         # 10,000 requests, 8 clients
    python -m koloda.serve_soak --latency --moves 100   # agent moves with ms=200

Without `--url` it starts a server (`koloda serve --http --port 0`) and reads that
server's resident memory from /proc at the start and at the end.  Every answer is
checked; a wrong one, or any 5xx status, is counted as a failure.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

from koloda.client import Client


@dataclass
class SoakFigures:
    requests: int = 0
    failures: list = field(default_factory=list)
    server_errors: int = 0
    state_ms: list = field(default_factory=list)
    seconds: float = 0.0
    rss_start_kib: int | None = None
    rss_end_kib: int | None = None
    rss_peak_kib: int | None = None

    def summary(self) -> dict:
        ordered = sorted(self.state_ms)
        return {
            "requests": self.requests, "failures": len(self.failures),
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
        if self.session is None:
            reply = client.send({"type": "new", "game": "durak", "seats": [0],
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
                                     "agent": "random", "apply": True})
                if (not reply.get("ok") or reply["action"] not in reply["policy"]
                        or reply["events"][0]["action"] != reply["action"]):
                    return f"move: {reply}"
            self.view = reply["view"]
            return None
        if pick < 0.9:
            reply = client.send({"type": "state", "session": "f" * 16})
            return None if _code(reply) == "unknown_session" else f"unknown session: {reply}"
        if pick < 0.95:
            reply = client.send_text('{"type": "state", "session": ')
            return None if _code(reply) == "bad_json" else f"bad json: {reply}"
        reply = client.send({"type": "hello"})
        return None if reply.get("protocol") == 1 else f"hello: {reply}"


def _code(reply: dict) -> str | None:
    return (reply.get("error") or {}).get("code")


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
    budget of `ms`: the wall time of each request as the client sees it."""
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
        if len(reply["policy"]) > 1:            # forced moves answer at once: not counted
            wall.append(elapsed)
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
    """Resident memory of a process in KiB (Linux), or None."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def start_server(workers: int = 2, extra=()) -> tuple[subprocess.Popen, str]:
    """`koloda serve --http --port 0` as a child process, and its URL once it listens."""
    process = subprocess.Popen([sys.executable, "-m", "koloda", "serve", "--http", "--port", "0",
                                "--workers", str(workers), *extra],
                               stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if "http://" not in line:
        process.kill()
        raise RuntimeError(f"koloda serve did not start: {line!r}")
    return process, line.split()[-1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m koloda.serve_soak", description=__doc__,
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
    if url is None:
        process, url = start_server(args.workers)
    try:
        if args.latency:
            print(json.dumps(run_move_latency(url, args.moves, args.ms)))
        else:
            rss = (lambda: rss_of(process.pid)) if process else None
            figures = run_soak(url, args.requests, args.clients, rss)
            print(json.dumps(figures.summary()))
            return 1 if figures.failures or figures.server_errors else 0
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
