"""A protocol session: one game as koloda tracks it, seen from the app's seats.

koloda keeps the whole game (every hand) in one state.  When koloda deals (`dealer
"koloda"`), that state is the truth.  When the app deals (`dealer "app"`), the app tells
koloda each chance outcome its seats see, and sends the others as unknown (`?`): koloda
then guesses them, consistently with what the seats saw, and redraws its guesses when a
later action contradicts them (koloda.games.kit.belief's `RedrawBelief`, which keeps every
card the seats saw and every public event).  Here are only the protocol's sides of it:
an action string's `pN ` seat, a request's deadline, and what goes wrong said as protocol
errors.  Nothing a reply shows reveals a card the app's seats did not see.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager

from koloda.games.kit.belief import (
    BeliefError,
    OutOfTime,
    OutOfTurn,
    RedrawBelief,
    Unreadable,
    Wanted,
    is_unknown,
)
from koloda.games.kit.params import cut
from koloda.protocol.errors import ProtocolError
from koloda.protocol.record import MAX_ACTION_CHARS, record_of, split_seat

#: the most lines of what followed an action an app may send (an action has at most
#: MAX_ACTION_CHARS characters, as in records)
MAX_THEN_LINES = 64
DEALERS = ("koloda", "app")

#: all the redrawing one request may do, so a long `observe` list cannot hold the server
#: (each redraw's own tries and seconds: koloda.games.kit.belief.RedrawLimits)
REQUEST_SECONDS = 5.0

#: the protocol's code for each way a told action can fail (OutOfTime is `limit`)
_CODES = {Unreadable: "malformed_action", OutOfTurn: "out_of_turn"}


@contextmanager
def protocol_errors() -> Iterator[None]:
    """The belief's errors as the protocol's (a request out of time is `limit`)."""
    try:
        yield
    except OutOfTime:
        raise ProtocolError("limit", f"this request spent its {REQUEST_SECONDS:g} s of "
                            f"redrawing guessed cards; send fewer actions per request"
                            ) from None
    except BeliefError as err:
        raise ProtocolError(_CODES.get(type(err), "illegal_action"), str(err)) from None


class Track(RedrawBelief):
    """The full state and what the session's seats have seen of it (`RedrawBelief`).  An
    `observe` list works on a copy, so a list that fails halfway leaves the session as it
    was."""

    def observe_text(self, text: str, rng: random.Random,
                     then: list[str] | None = None) -> dict:
        """Apply one observed action string (`pN ` first names the player, `?` stands for
        an outcome the seats did not see); `then`, when given, is exactly what followed it
        in public.  ProtocolError names what is wrong."""
        seat, body = split_seat(text)
        with protocol_errors():
            return self.observe(body, rng, then, seat=seat, said=text)

    def make_seat_move(self, rng: random.Random) -> None:
        """Before a `hint`: make it one of the session's seats' turn, which the guessed
        cards may have decided otherwise (Durak's first attacker holds the lowest trump)."""
        if self.state.current_player() not in self.seats:
            seats = ", ".join(f"p{s}" for s in self.seats)
            refused = ProtocolError("out_of_turn", f"it is not {seats}'s turn "
                                    f"({self.state.turn_string()}): ask `move` for the "
                                    f"player to move")
            if self.turn_told():            # public since a decision: no redraw helps
                raise refused
            self._redraw(lambda core: core.current_player() in self.seats, rng, refused)

    def _redraw(self, wanted: Wanted, rng: random.Random, refused: ProtocolError) -> None:
        """Redraw the guesses so that `wanted(engine)` holds, or raise `refused`."""
        with protocol_errors():
            if not self.redraw(wanted, rng):
                raise refused


class Session:
    """One game for one app: its seats, who deals, the seeded random sources, the track."""

    def __init__(self, session_id: str, game, game_string: str, seats: tuple[int, ...],
                 dealer: str, seed: int, now: float):
        self.id = session_id
        self.game = game
        self.game_string = game_string
        self.seats = seats
        self.dealer = dealer
        self.seed = seed
        self.last_used = now
        self.track = Track(game.new_initial_state(), seats)
        self._deal_rng = random.Random(f"{seed}/deal")
        self._guess_rng = random.Random(f"{seed}/guess")
        self._agent_seeds = random.Random(f"{seed}/agents")
        self._view_rng = random.Random(f"{seed}/view")

    @property
    def state(self):
        return self.track.state

    def start(self) -> list[dict]:
        """The opening chance outcomes when koloda deals; none when the app does."""
        return self.track.deal(self._deal_rng) if self.dealer == "koloda" else []

    def observe(self, texts: list[str]) -> list[dict]:
        """Apply the actions in order, all or none; the events that followed."""
        draft = self.track.copy()
        draft.deadline = time.monotonic() + REQUEST_SECONDS
        events = []
        for index, item in enumerate(texts):
            try:
                text, then = _observed_item(item, index)
                if self.dealer == "koloda" and is_unknown(split_seat(text)[1]):
                    raise ProtocolError("out_of_turn", f"{cut(repr(text))}: koloda deals in "
                                        f"this session, so the app sends decisions only")
                events.append(draft.observe_text(text, self._guess_rng, then))
                if self.dealer == "koloda":
                    events += draft.deal(self._deal_rng)
            except ProtocolError as err:
                err.index = index
                raise
        draft.deadline = math.inf
        self.track = draft
        return events

    def play(self, action: int) -> list[dict]:
        """Apply a decision koloda chose (the player to move's own action)."""
        events = [self.track.apply(action)]
        if self.dealer == "koloda":
            events += self.track.deal(self._deal_rng)
        return events

    def prepare_hint(self) -> None:
        """Make it a seat of the session's turn, if guessed cards said otherwise."""
        self.track.deadline = time.monotonic() + REQUEST_SECONDS
        try:
            self.track.make_seat_move(self._guess_rng)
        finally:
            self.track.deadline = math.inf

    def next_agent_seed(self) -> int:
        return self._agent_seeds.randrange(2**31)

    # --- what the app may see ---------------------------------------------------------

    def view(self, since: int | None = None) -> dict:
        """The game as the session's seats see it: whose turn, their legal actions, each
        seat's view (hand, table, counts, scores) and, at the end, the returns and (when koloda
        dealt, so the whole game is known) the game's record."""
        state = self.state
        core = state.core
        player = state.current_player()
        status = "over" if state.is_terminal() else "chance" if player < 0 else "play"
        view = {"status": status, "to_move": player if player >= 0 else None,
                "turn": state.turn_string(), "event_count": len(self.track.events)}
        if status == "play" and not self.track.mover_known(self._view_rng):
            view.update(to_move=None, turn="unknown: whose turn it is depends on cards the "
                        "seats did not see")
        elif status == "play" and player in self.seats:
            view["legal"] = [state.action_to_string(player, a) for a in state.legal_actions()]
        if status == "chance":
            outcomes = core.chance_outcomes()
            view["chance_seen_by"] = [p for p in range(core.rules.num_players)
                                      if all(core.chance_seen_by(p, o) for o, _ in outcomes)]
        if status == "over":
            view["returns"] = list(state.returns())
            view["winners"] = sorted(state.winners())
            if self.dealer == "koloda":
                view["record"] = record_of(state, self.game_string, self.seed)
        view["seats"] = [seat_view(state, seat) for seat in self.seats]
        if since is not None:
            view["events"] = self.track.events[since:]
        return view


def seat_view(state, seat: int) -> dict:
    """One seat's `view` (what it sees, as the game's observer gives it) and observation
    string, with its `hand` and (Durak) `table` repeated from the view for older clients."""
    view = state.seat_view(seat)
    entry = {"seat": seat, "observation": state.observation_string(seat), "view": view,
             "hand": view["hand"]}
    if "table" in view:
        entry["table"] = table_text(view["table"])
    return entry


def table_text(pairs: list[dict]) -> str:
    """Durak's table as the observation writes it: `Ks/- 9d/Th`, `-` when empty."""
    return " ".join(f"{pair['attack']}/{pair['defence'] or '-'}" for pair in pairs) or "-"


def _action_text(text: str, index: int) -> str:
    if len(text) > MAX_ACTION_CHARS:
        raise ProtocolError("malformed_action", f"actions[{index}] is {len(text)} characters "
                            f"long; an action has at most {MAX_ACTION_CHARS}", index)
    return text


def _observed_item(item, index: int) -> tuple[str, list[str] | None]:
    """An `observe` item: an action string, or {"action": ..., "then": [lines]}."""
    if isinstance(item, str):
        return _action_text(item, index), None
    if isinstance(item, dict) and isinstance(item.get("action"), str) and set(item) <= {
            "action", "then"}:
        then = item.get("then")
        if then is None or (isinstance(then, list) and len(then) <= MAX_THEN_LINES
                            and all(isinstance(t, str) and len(t) <= MAX_ACTION_CHARS
                                    for t in then)):
            return _action_text(item["action"], index), then
    raise ProtocolError("bad_request", f"actions[{index}] must be an action string or "
                        f"{{\"action\": ..., \"then\": [...]}}, not {cut(repr(item))}")
