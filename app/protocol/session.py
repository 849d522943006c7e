"""A protocol session: one game as koloda tracks it, seen from the app's seats.

koloda keeps the whole game (every hand) in one state.  When koloda deals (`dealer
"koloda"`), that state is the truth.  When the app deals (`dealer "app"`), the app tells
koloda each chance outcome its seats see, and sends the others as unknown (`?`): koloda
then guesses them, consistently with what the seats saw.  A guess can be contradicted
later (an opponent plays a card the guess put in the stock); the state is then redrawn
from the seat's information state until the observed action is legal, which keeps every
card the seat saw and every public event.  Nothing a reply shows reveals a card the
app's seats did not see.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter

from koloda.games.errors import ActionError, IllegalActionError, MalformedActionError
from koloda.games.kit.chance import sample_outcome
from koloda.games.kit.params import cut
from koloda.games.kit.told import UNKNOWN, apply_told
from koloda.protocol.errors import ProtocolError
from koloda.protocol.record import MAX_ACTION_CHARS, record_of, split_seat

#: the most lines of what followed an action an app may send (an action has at most
#: MAX_ACTION_CHARS characters, as in records)
MAX_THEN_LINES = 64
DEALERS = ("koloda", "app")

#: quick worlds drawn to see whether an observed action is possible at all
QUICK_WORLDS = 5000
QUICK_SECONDS = 0.5
#: full redraws tried to make an observed action legal, and the time they may take
REDRAWS = 2000
REDRAW_SECONDS = 3.0
#: fresh guesses of every unknown outcome tried after that, and their time
REGUESSES = 2000
REGUESS_SECONDS = 1.5
#: all the redrawing one request may do, so a long `observe` list cannot hold the server
REQUEST_SECONDS = 5.0


def is_unknown(text: str) -> bool:
    """`?` or `<verb> ?`: a chance outcome the app's seats did not see."""
    words = text.split()
    return bool(words) and words[-1] == UNKNOWN and len(words) <= 2


class Track:
    """The full state and what the session's seats have seen of it.  An `observe` works
    on a copy, so a list that fails halfway leaves the session as it was."""

    def __init__(self, state, seats: tuple[int, ...]):
        self.state = state
        self.seats = seats
        self.events: list[dict] = []      # every event, as the seats see it
        self.guessed: list[int] = []      # history indices of outcomes koloda guessed
        self.guessed_seats: set[int] = set()   # seats that saw a guessed outcome
        self.pinned: list[int] = []       # history indices of outcomes the app gave that
                                          # none of its seats sees: a redraw keeps them
        self.given: list[int] = []        # history indices of every outcome the app gave
        self._mover_known: tuple[int, bool] | None = None   # (history length, answer)
        self._then: list[str] | None = None    # what follows the action being observed
        self.request_ends = math.inf           # when the request's redrawing must stop
        self.facts: dict[int, list[str]] = {}  # history index -> what the app said followed

    def copy(self) -> Track:
        other = Track(self.state.clone(), self.seats)
        other.events = list(self.events)
        other.guessed = list(self.guessed)
        other.guessed_seats = set(self.guessed_seats)
        other.pinned = list(self.pinned)
        other.given = list(self.given)
        other.facts = dict(self.facts)
        other._mover_known = self._mover_known
        return other

    # --- applying ----------------------------------------------------------------------

    def apply(self, action: int) -> dict:
        """Apply a decision or outcome; the event as the seats see it (a chance outcome
        none of them sees reads `deal ?`, even when the app itself gave it)."""
        event = apply_told(self.state, action, self.seats)
        self.events.append(event)
        return event

    def deal(self, rng: random.Random) -> list[dict]:
        """koloda deals: chance outcomes drawn by their probabilities up to a decision."""
        events = []
        while self.state.is_chance_node():
            events.append(self.apply(sample_outcome(self.state.chance_outcomes(), rng)))
        return events

    def observe(self, text: str, rng: random.Random, then: list[str] | None = None) -> dict:
        """Apply one observed action string (`pN ` first names the player, `?` stands for
        an outcome the seats did not see); `then`, when given, is exactly what followed it
        in public (the game's narration: pairs laid, a deal's scores), which the guesses
        must agree with.  ProtocolError names what is wrong."""
        self._then = then
        state = self.state
        seat, body = split_seat(text)
        if state.is_terminal():
            raise ProtocolError("illegal_action", f"{text!r}: the game is over "
                                f"({state.turn_string()})")
        if is_unknown(body):
            if seat is not None:
                raise ProtocolError("out_of_turn", f"{text!r}: an unknown outcome is "
                                    f"chance's, not p{seat}'s")
            event = self.apply(self._guess(body, rng))
            self._record_facts(then)
            return event
        try:
            action = state.parse_action(body)
        except MalformedActionError as err:
            raise ProtocolError("malformed_action", str(err)) from None
        except IllegalActionError as err:     # a decision where chance moves, or the reverse
            raise ProtocolError("out_of_turn", str(err)) from None
        except ActionError as err:
            raise ProtocolError("malformed_action", str(err)) from None
        self._make_legal(action, seat, body, rng)
        core = self.state.core
        given_hidden = core.is_chance() and not any(
            core.chance_seen_by(s, action) for s in self.seats)
        if core.is_chance():
            self.given.append(len(self.state.history()))
        if given_hidden:
            self.pinned.append(len(self.state.history()))
        event = self.apply(action)
        self._record_facts(then)
        return event

    def _record_facts(self, then) -> None:
        if then is not None:
            self.facts[len(self.state.history()) - 1] = list(then)

    def _follows(self, engine, action: int) -> bool:
        """Whether applying `action` to `engine` is followed by what the app said."""
        return self._then is None or self._narrates(engine, action, self._then)

    def _narrates(self, engine, action: int, then: list[str]) -> bool:
        world = engine.copy()
        since = len(world.events)
        world.apply(action)
        return self.state.views.narration(world, since) == list(then)

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

    def turn_told(self) -> bool:
        """Whether a decision has been played: from then on whose turn it is follows from
        public events in every koloda game (only Durak's first attacker hangs on cards)."""
        return any(event["player"] is not None for event in self.events)

    def mover_known(self, rng: random.Random, tries: int = 12) -> bool:
        """Whether the seats can tell whose turn it is: always, unless koloda guessed
        cards that decide it (and no decision told it yet).  Fresh guesses that replay
        the game to another player to move show it is not known."""
        state = self.state
        if not self.guessed or state.is_terminal():
            return True
        length = len(state.history())
        if self._mover_known is None or self._mover_known[0] != length:
            mover = state.current_player()
            known = True
            for _ in range(tries):
                replayed = self._reguess(rng)
                if replayed is not None and replayed[0].current_player() != mover:
                    known = False
                    break
            self._mover_known = (length, known)
        return self._mover_known[1]

    # --- unknown outcomes -------------------------------------------------------------

    def _guess(self, text: str, rng: random.Random) -> int:
        """An outcome for `?`: drawn by its probability among those no seat of the
        session would see, so the guess agrees with everything they saw."""
        state = self.state
        core = state.core
        if not core.is_chance():
            raise ProtocolError("out_of_turn", f"{text!r} stands for a chance outcome, but "
                                f"it is a player's turn ({state.turn_string()})")
        outcomes = core.chance_outcomes()
        verb = state.action_to_string(-1, outcomes[0][0]).split()[0]
        words = text.split()
        if len(words) == 2 and words[0].lower() != verb:
            raise ProtocolError("out_of_turn", f"{text!r}: the chance outcome due is "
                                f"'{verb} ...' ({state.turn_string()})")
        hidden = self._hidden_outcomes(core)
        if not hidden:
            seats = ", ".join(f"p{s}" for s in self.seats)
            raise ProtocolError("illegal_action", f"{text!r}: {seats} sees this outcome, so "
                                f"send it, as '{verb} <card>' ({state.turn_string()})")
        fitting = [(o, p) for o, p in hidden if self._follows(core, o)]
        if not fitting:
            self._redraw(lambda world: any(self._follows(world, o)
                                           for o, _ in self._hidden_outcomes(world)), rng,
                         ProtocolError("illegal_action", f"{text!r}: no outcome the seats "
                                       f"did not see is followed by {self._then!r}"))
            core = self.state.core
            fitting = [(o, p) for o, p in self._hidden_outcomes(core) if self._follows(core, o)]
        outcome = _draw(fitting, rng)
        self.guessed.append(len(state.history()))
        self.guessed_seats.update(p for p in range(core.rules.num_players)
                                  if core.chance_seen_by(p, outcome))
        return outcome

    def _hidden_outcomes(self, engine) -> list[tuple[int, float]]:
        return [(o, p) for o, p in engine.chance_outcomes()
                if not any(engine.chance_seen_by(s, o) for s in self.seats)]

    def _make_legal(self, action: int, seat: int | None, text: str,
                    rng: random.Random) -> None:
        """Make `action` legal (played by `seat` if named) by redrawing the hidden cards
        from the seats' information, or raise ProtocolError: no world they cannot rule
        out allows it."""
        state = self.state
        mover = state.current_player()
        if seat is None or seat == mover:
            if state.core.is_legal(action) and self._follows(state.core, action):
                return
            if mover in self.seats:             # the seat's own move: its cards decide
                try:
                    state.string_to_action(mover, text)
                except ActionError as err:
                    raise ProtocolError("illegal_action", str(err)) from None
        if seat is not None and seat != mover:
            who = "chance" if mover < 0 else f"p{mover}"
            refused = ProtocolError("out_of_turn", f"{text!r}: it is not p{seat}'s turn; "
                                    f"{who} is to move ({state.turn_string()})")
        else:
            who = "chance" if mover < 0 else f"p{mover}"
            refused = ProtocolError("illegal_action", f"{text!r} is not legal for {who} "
                                    f"here ({state.turn_string()})")
            if state.core.is_legal(action):
                refused = ProtocolError("illegal_action", f"{text!r} is not followed by "
                                        f"{self._then!r} in any world koloda drew")
        if mover < 0 and seat is not None:
            raise refused
        self._redraw(lambda core: core.is_legal(action) and (
            seat is None or core.current_player() == seat) and self._follows(core, action),
            rng, refused)

    def _redraw(self, wanted, rng: random.Random, refused: ProtocolError) -> None:
        """Replace the state by one the seats cannot tell from it for which
        `wanted(engine)` holds; raise `refused` when none turns up.  Only koloda's
        guesses can change: the app's own outcomes stay."""
        state = self.state
        if not self.guessed:
            raise refused
        if self._possible(wanted, rng):
            seat, others = self.seats[0], self.seats[1:]
            views = [state.information_state_string(s) for s in others]
            history = state.history()
            deadline = min(time.monotonic() + REDRAW_SECONDS, self._request_deadline())
            for _ in range(REDRAWS):
                world = state.resample_from_infostate(seat, rng.random)
                if (wanted(world.core)
                        and all(world.information_state_string(s) == view
                                for s, view in zip(others, views))
                        and all(world.history()[i] == history[i] for i in self.pinned)):
                    self.state = world
                    return
                if time.monotonic() > deadline:
                    break
        # The game's resampler keeps what it takes as public, such as whose turn it is;
        # when a guess decided that wrongly (Durak's first attacker), guess afresh.
        deadline = min(time.monotonic() + REGUESS_SECONDS, self._request_deadline())
        for _ in range(REGUESSES):
            replayed = self._reguess(rng)
            if replayed is not None and wanted(replayed[0]):
                world = state.get_game().new_initial_state()
                for action in replayed[1]:
                    world.apply_action(action)
                self.state = world
                return
            if time.monotonic() > deadline:
                break
        raise refused

    def _request_deadline(self) -> float:
        if time.monotonic() > self.request_ends:
            raise ProtocolError("limit", f"this request spent its {REQUEST_SECONDS:g} s of "
                                f"redrawing guessed cards; send fewer actions per request")
        return self.request_ends

    def _reguess(self, rng: random.Random):
        """The history replayed with every guessed outcome drawn afresh (and what the app
        gave kept): (engine, actions), or None when a kept action turns illegal."""
        state = self.state
        engine = state.get_game().initial_engine(state.engine_class)
        guessed = set(self.guessed)
        history = state.history()
        given_later = Counter(history[i] for i in self.given)
        given_later_at = set(self.given)
        actions = []
        narrate = state.views.narration
        for index, action in enumerate(history):
            if index in given_later_at:
                given_later[action] -= 1
            if index in guessed:
                hidden = self._hidden_outcomes(engine)
                # a card the app names later is not dealt before (where the game has
                # copies, a guess keeps off that rank, which is still a world they allow)
                hidden = [(o, p) for o, p in hidden if not given_later[o]] or hidden
                if index in self.facts:
                    hidden = [(o, p) for o, p in hidden
                              if self._narrates(engine, o, self.facts[index])]
                if not hidden:
                    return None
                action = _draw(hidden, rng)
            elif not engine.is_legal(action):
                return None
            since = len(engine.events)
            engine.apply(action)
            if index in self.facts and narrate(engine, since) != self.facts[index]:
                return None
            actions.append(action)
        return engine, actions

    def _possible(self, wanted, rng: random.Random) -> bool:
        """Whether quick worlds of the first seat show `wanted` can hold at all (a miss
        means the app sent what no deal allows)."""
        try:
            worlds = self.state.determinizer(self.seats[0])
        except NotImplementedError:
            return True
        deadline = min(time.monotonic() + QUICK_SECONDS, self._request_deadline())
        for _ in range(QUICK_WORLDS):
            if wanted(worlds.sample(rng)):
                return True
            if time.monotonic() > deadline:
                return True     # undecided: let the full redraws judge
        return False


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
        draft.request_ends = time.monotonic() + REQUEST_SECONDS
        events = []
        for index, item in enumerate(texts):
            try:
                text, then = _observed_item(item, index)
                if self.dealer == "koloda" and is_unknown(split_seat(text)[1]):
                    raise ProtocolError("out_of_turn", f"{cut(repr(text))}: koloda deals in "
                                        f"this session, so the app sends decisions only")
                events.append(draft.observe(text, self._guess_rng, then))
                if self.dealer == "koloda":
                    events += draft.deal(self._deal_rng)
            except ProtocolError as err:
                err.index = index
                raise
        draft.request_ends = math.inf
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
        self.track.request_ends = time.monotonic() + REQUEST_SECONDS
        try:
            self.track.make_seat_move(self._guess_rng)
        finally:
            self.track.request_ends = math.inf

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


def _draw(outcomes, rng: random.Random) -> int:
    """One of `outcomes` [(outcome, probability)], by their probabilities renormalised."""
    total = sum(p for _, p in outcomes)
    return sample_outcome([(o, p / total) for o, p in outcomes], rng)


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
