"""`koloda play`: a person plays a game at the terminal against koloda's agents, or
watches agents play each other (`--watch`).

The game is a protocol session in this process (docs/protocol.md), as an app would open
one: the person's seat is the session's seat, their moves are `observe`d, the others'
seats are played with `move` and `apply`, advice is a `hint`.  Watching, the session
holds every seat (so every hand is shown) and each move is a `hint` with `apply`.  At the
end, or when the person quits, the game's record is saved for `koloda show --record`.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from koloda import games, solvers
from koloda.analysis.parket_game import summary_lines
from koloda.games.errors import KolodaError
from koloda.games.kit.params import cut
from koloda.play.typed import read_choice
from koloda.play.view import (
    Style,
    event_lines,
    hint_line,
    legal_lines,
    position_lines,
    result_lines,
)
from koloda.protocol.client import Client, ErrorReply
from koloda.protocol.record import record_of, save_record

HELP = """\
  type the number of a move, or the move itself as listed (attack 7s, take; 9h d2 in
  Parket; suit symbols read as letters: 7♠ is 7s), then Enter.
  hint   what an agent would play here, and the shares of the moves it weighed
  help   this text
  quit   stop; the game so far is saved as a record (also Ctrl-D)"""


class PlayError(KolodaError):
    """The protocol refused something koloda play itself asked (a bad game, seat, agent)."""


@dataclass
class PlayOptions:
    game: str                      # a game string, as `new` takes it
    agents: list[str]              # --vs: one spec, or one per seat koloda plays
    seat: int | None = 0           # the person's seat; None watches
    seed: int | None = None
    record: Path | None = None     # default koloda-<game>-<seed or session id>.json here
    delay: float = 0.6             # pause after each move the person did not make
    hint_agent: str | None = None  # default: the game's default agent
    analysis_ms: int = 2000        # Parket: the game analysed at the end, per position; 0 not


def default_agent(game) -> str:
    """The opponent when `--vs` is not given, and the adviser without `--hint`: the one
    the game's spec names (`GameSpec.opponent`), as the page and apps open against."""
    return games.GAMES[game.get_type().short_name].opponent


def agents_per_seat(game, agents: list[str], seat: int | None) -> list[str | None]:
    """The spec playing each seat (None for the person's): `agents` gives one for all or
    one per seat koloda plays, in seat order; each is checked against the game."""
    players = game.num_players()
    others = [s for s in range(players) if s != seat]
    if not agents:
        agents = [default_agent(game)]
    if len(agents) == 1:
        agents = agents * len(others)
    if len(agents) != len(others):
        raise PlayError(f"--vs gives {len(agents)} agents; give one for all or one per "
                        f"seat koloda plays ({len(others)}: "
                        f"{', '.join(f'p{s}' for s in others)})")
    for spec in set(agents):
        solvers.check_spec(game, spec)            # an AgentSpecError names the problem
    by_seat: list[str | None] = [None] * players
    for s, spec in zip(others, agents):
        by_seat[s] = spec
    return by_seat


class Table:
    """One game at the terminal: draws what the person may see and asks for their moves."""

    def __init__(self, options: PlayOptions, out=None, read_line=input, width: int | None = None):
        self.options = options
        self.out = out or sys.stdout
        self.read_line = read_line
        self.style = Style.for_stream(self.out)
        self.width = width or min(120, shutil.get_terminal_size((101, 40)).columns - 1)
        self.client = Client.in_process()
        try:
            self.game = games.load_game(options.game)
        except KolodaError as err:
            raise PlayError(str(err)) from None
        self.kind = self.game.get_type().short_name
        players = self.game.num_players()
        seat = options.seat
        if seat is not None and not 0 <= seat < players:
            raise PlayError(f"--seat must be a seat of the game, 0..{players - 1}, not {seat}")
        self.you = seat
        self.agents = agents_per_seat(self.game, options.agents, seat)
        self.names = ["you" if s == seat else self.agents[s] for s in range(players)]
        self.hint_agent = options.hint_agent or default_agent(self.game)
        if seat is not None:
            solvers.check_spec(self.game, self.hint_agent)   # --hint checked up front
        self.session = None
        self.seed = options.seed
        self.moves = 0

    # --- the protocol ----------------------------------------------------------------

    def must(self, kind: str, **fields) -> dict:
        """A request koloda play itself makes; a refusal is a PlayError with its message."""
        try:
            return self.client.request(kind, **fields)
        except ErrorReply as err:
            raise PlayError(err.reply["error"]["message"]) from None

    def record_so_far(self) -> dict:
        """The game so far as a record, every hand included (the session in this process
        keeps them)."""
        tracked = self.client.transport.protocol.sessions[self.session]
        return record_of(tracked.state, tracked.game_string, tracked.seed, self.names)

    # --- output ----------------------------------------------------------------------

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)
        self.out.flush()

    def show_events(self, events: list[dict]) -> None:
        self.say(*event_lines(events, self.names, self.you, self.style, len(self.names)))

    def show_position(self, view: dict) -> None:
        dot = "  ·  " if self.style.unicode else "  "
        seed = () if self.seed is None else (f"seed {self.seed}",)
        title = dot.join((self.session_game, *seed, f"move {self.moves + 1}"))
        self.say("", self.style.rule(title, self.width))
        self.say(*position_lines(view, self.names, self.you, self.style, self.width))

    # --- the game ---------------------------------------------------------------------

    def run(self) -> int:
        """Play to the end (or the person's quit); the exit code."""
        seats = list(range(len(self.names))) if self.you is None else [self.you]
        new = self.must("new", game=self.options.game, seats=seats, seed=self.seed)
        # A seed koloda drew stays unknown until the end: it decides every hand.
        self.session, self.seed, self.session_game = new["session"], new.get("seed"), new["game"]
        self.record_path = Path(self.options.record or
                                f"koloda-{self.kind}-{self.seed or self.session}.json")
        check_record_path(self.record_path)          # before the game, not after it
        seed = "" if self.seed is None else f", seed {self.seed}"
        self.say(self.style.paint(f"{self.session_game}{seed}: " + ", ".join(
            f"p{s} {name}" for s, name in enumerate(self.names)), "bold"))
        self.show_events(new["events"])
        view = new["view"]
        try:
            while view["status"] != "over":
                view = self.step(view)
                if view is None:
                    path = self.save(self.record_so_far())
                    self.say(f"you quit; the game so far is saved in {path} "
                             f"(koloda show --record {path} replays it)")
                    return 0
        except KeyboardInterrupt:
            path = self.save(self.record_so_far())
            raise KeyboardInterrupt(f"the game so far is saved in {path}") from None
        except Exception:
            path = self.save(self.record_so_far())
            self.say(f"the game stopped; the game so far is saved in {path}")
            raise
        self.show_position(view)
        self.say(*result_lines(view, self.names, self.you, self.style))
        record = dict(view["record"], players=self.names)
        path = self.save(record)
        self.say(f"the game's record is saved in {path}; koloda show --record {path} "
                 f"replays it")
        if self.kind == "parket" and self.options.analysis_ms:
            self.show_analysis()
        return 0

    def step(self, view: dict) -> dict | None:
        """One move: the person's, an agent's, or (watching) the agent's of the seat to
        move; the view after it, None when the person quits."""
        mover = view["to_move"]
        if mover is None:
            raise PlayError(f"no seat is to move ({view['turn']})")
        if mover == self.you:
            reply = self.persons_move(view)
            if reply is None:
                return None
        else:
            if self.you is None:
                self.show_position(view)
            kind = "hint" if self.you is None else "move"
            with self.thinking(mover):
                reply = self.must(kind, session=self.session, agent=self.agents[mover],
                                  apply=True)
            self.show_events(reply["events"])
            if self.options.delay > 0:
                time.sleep(self.options.delay)
        self.moves += 1
        return reply["view"]

    def persons_move(self, view: dict) -> dict | None:
        """The person's move: the position, the legal moves numbered, and the prompt
        until a move is played (its reply) or they quit (None)."""
        legal = view["legal"]
        self.show_position(view)
        self.say(*legal_lines(legal, self.style, self.width))
        prompt = f"your move (1-{len(legal)}, hint, help, quit): "
        while True:
            try:
                line = self.read_line(prompt)
            except EOFError:
                self.say("")
                return None
            choice = read_choice(line, legal)
            if choice.kind == "empty":
                continue
            if choice.kind == "quit":
                return None
            if choice.kind == "help":
                self.say(HELP)
            elif choice.kind == "hint":
                self.say("  thinking...")
                reply = self.client.send({"type": "hint", "session": self.session,
                                          "agent": self.hint_agent})
                self.say(hint_line(reply, self.style) if reply["ok"]
                         else f"  no hint: {reply['error']['message']}")
            elif choice.kind == "error":
                self.say("  " + choice.text)
            else:
                reply = self.client.send({"type": "observe", "session": self.session,
                                          "actions": [choice.text]})
                if reply["ok"]:
                    self.show_events(reply["events"])
                    return reply
                self.say("  " + self.style.cards(refusal(reply["error"], self.width)))

    def show_analysis(self) -> None:
        """The exact solver's verdict on the game (Parket): which moves threw a win or a
        draw away, and what kept it."""
        with self.waiting("analysing the game..."):
            reply = self.must("analyse", session=self.session, ms=self.options.analysis_ms)
        self.say("", *summary_lines(reply["analysis"], self.names))

    @contextmanager
    def waiting(self, what: str):
        """`what` shown while it lasts, wiped after (on a terminal only, so piped output
        stays one line per move)."""
        live = getattr(self.out, "isatty", lambda: False)()
        if live:
            self.out.write(self.style.paint(f"  {what}", "dim"))
            self.out.flush()
        try:
            yield
        finally:
            if live:
                self.out.write("\r\x1b[K")

    def thinking(self, seat: int):
        """`p1 thinking...` while an agent thinks."""
        return self.waiting(f"p{seat} {self.agents[seat]} thinking...")

    def save(self, record: dict) -> Path:
        try:
            return save_record(record, self.record_path)
        except OSError as err:
            raise PlayError(f"cannot save the game's record in {self.record_path}: "
                            f"{err.strerror or err}") from None


def check_record_path(path: Path) -> None:
    """Refuse a record path the game could not be saved in, before the game is played:
    a folder, a file that cannot be written, a place with no writable folder above it."""
    problem = _record_path_problem(Path(path))
    if problem:
        raise PlayError(f"cannot save the game's record in {cut(str(path))}: {problem}")


def _record_path_problem(path: Path) -> str | None:
    try:
        if path.is_dir():
            return "it is a folder; give a file name, e.g. game.json"
        if path.exists():
            return None if os.access(path, os.W_OK) else "the file cannot be written"
        folder = path.parent
        while not folder.exists() and folder != folder.parent:   # save_record makes them
            folder = folder.parent
    except OSError as err:
        return err.strerror or str(err)
    if not folder.is_dir():
        return f"{folder} is not a folder"
    try:                                  # a file made and gone: what access() cannot say
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as err:
        return f"the folder {folder} cannot be written ({err.strerror or err})"
    return None


def refusal(error: dict, width: int) -> str:
    """The protocol's word on a typed move, as one line: a list of the legal moves too
    long for the line is left to the numbered list above."""
    message = (error["message"].splitlines() or ["refused"])[0]
    head, legal, _ = message.partition("; legal: ")
    if legal and len(message) > width - 2:
        message = head + "; the legal moves are listed above"
    return message


def play(options: PlayOptions, out=None, read_line=input) -> int:
    if options.seat is not None and sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing and history at the prompt)
        except ImportError:
            pass
    return Table(options, out, read_line).run()
