"""What seats were told, and full game states that agree with it.

Seats see decisions, the chance outcomes they are shown and what followed in public (an
event's `then`); an outcome they did not see reads `deal ?` (games/kit/told.py).  Keeping a
game as they were told it means keeping one full state (every hand) they cannot tell from
the true one: an outcome they did not see is guessed, by its probability among the
outcomes they would not see, and when a later event contradicts a guess (an opponent plays
a card the guess put in the stock, what followed differs) another world is drawn that
agrees with everything told.  koloda's agents look at such a state only through a resample
of the seat's information state, so any world the seats cannot rule out gives the same
view, hence the same move, as the true one.

`Belief` holds what both ways of doing so share: a told action read into an action id in
a world, the outcomes the seats would not see, a guess drawn among them (`draw`), what
followed an action checked against `then`.  `Budget` bounds every search for worlds in
tries and seconds.  `BeliefError`'s kinds say what went wrong; no message names a card
the seats did not see.  The two strategies:

* `RedrawBelief` keeps a pyspiel state for one or more seats, told one action at a time
  (koloda's protocol sessions, where an app deals).  A contradicting action redraws the
  whole state at once from the seats' information (the game's `resample_from_infostate`),
  else replays the game with every guess drawn afresh; the outcomes the teller gave stay.
* `RepairBelief` keeps an engine world for one seat, told events in batches (an external
  bot's seat).  It redraws only at decision points, after the first decision, where every
  game's resampler holds (Platinum Fish's assumes no pair in a hand, true once a deal is
  complete; Durak's first attacker hangs on hidden cards), and tries many worlds quickly,
  which rare facts need; every other try leans each guess towards the cards public events
  name later (`MENTION_WEIGHT`).
"""

from __future__ import annotations

import copy
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Self

import pyspiel

from koloda.games.errors import (
    ActionError,
    IllegalActionError,
    KolodaError,
    MalformedActionError,
)
from koloda.games.kit.chance import sample_outcome
from koloda.games.kit.told import UNKNOWN, apply_told

#: chance outcomes with their probabilities
Outcomes = list[tuple[int, float]]
#: a test of a world (an engine) a redraw must pass
Wanted = Callable[[Any], bool]

#: how much likelier a guess is for each later public mention of its card
MENTION_WEIGHT = 8.0
_PERFECT = pyspiel.GameType.Information.PERFECT_INFORMATION


# --- what goes wrong --------------------------------------------------------------------

class BeliefError(KolodaError):
    """What the seats were told cannot be kept; the message names only what they saw."""


class Unreadable(BeliefError):
    """A told action the game cannot read."""


class OutOfTurn(BeliefError):
    """A told action of a player (or chance) that is not to move."""


class Impossible(BeliefError):
    """No world the seats cannot rule out agrees with what they were told (or none was
    found within the limits)."""


class OutOfTime(BeliefError):
    """The caller's deadline for redrawing has passed (`RedrawBelief.deadline`)."""


# --- bounded work ---------------------------------------------------------------------

@dataclass(frozen=True)
class Limits:
    """One search for worlds: at most `tries` tries, for at most `seconds`."""

    tries: int
    seconds: float


class Budget:
    """Tries counted 0, 1, ... up to `tries`, none begun once `deadline` (on
    time.monotonic()) has passed; `out_of_time` says whether the clock ended them."""

    def __init__(self, tries: int, deadline: float):
        self.tries = tries
        self.deadline = deadline
        self.out_of_time = False

    def __iter__(self) -> Iterator[int]:
        for n in range(self.tries):
            if time.monotonic() >= self.deadline:
                self.out_of_time = True
                return
            yield n
        self.out_of_time = time.monotonic() >= self.deadline


# --- what both strategies share ---------------------------------------------------------

def is_unknown(text: object) -> bool:
    """`?` or `<verb> ?`: a chance outcome the seats did not see."""
    words = text.split() if isinstance(text, str) else []
    return bool(words) and words[-1] == UNKNOWN and len(words) <= 2


def draw(outcomes: Outcomes, rng: random.Random) -> int:
    """One of `outcomes` by their probabilities renormalised (a guess among those left)."""
    total = sum(p for _, p in outcomes)
    return sample_outcome([(o, p / total) for o, p in outcomes], rng)


class Belief:
    """A game kept for `seats`: what reading their events in a world needs, the same for
    both strategies.  Worlds are engines (cheap to copy and replay); a pyspiel state is
    built for the one that fits."""

    def __init__(self, game, seats: tuple[int, ...]):
        kind = type(game.new_initial_state())
        self.game = game
        self.seats = tuple(seats)
        self.notation = kind.notation
        self.views = kind.views
        self.engine_class = kind.engine_class

    def fresh(self) -> Any:
        """An engine at the game's start."""
        return self.game.initial_engine(self.engine_class)

    def action_id(self, world, text: str) -> int:
        """The action `text` names in `world` (the notation may read the position);
        an ActionError when it names none."""
        return self.notation.parse(world, text)

    def hidden(self, world) -> Outcomes:
        """The pending chance outcomes none of the seats would see: the only ones a guess
        may take, so it agrees with everything they saw."""
        return [(o, p) for o, p in world.chance_outcomes()
                if not any(world.chance_seen_by(s, o) for s in self.seats)]

    def follows(self, world, action: int, then) -> bool:
        """Apply `action` to `world` (in place); whether what followed in public is
        exactly `then` (the world is spoilt when not)."""
        since = len(world.events)
        world.apply(action)
        return self.views.narration(world, since) == then

    def would_follow(self, world, action: int, then) -> bool:
        """`follows` on a copy: `world` stays as it is."""
        return self.follows(world.copy(), action, then)


# --- the protocol sessions' strategy: redraw the whole state at once --------------------

@dataclass(frozen=True)
class RedrawLimits:
    """How hard `RedrawBelief.redraw` looks for a world."""

    #: quick worlds drawn to see whether what is wanted is possible at all
    quick: Limits = Limits(5000, 0.5)
    #: full redraws from the first seat's information state
    redraws: Limits = Limits(2000, 3.0)
    #: fresh guesses of every unknown outcome tried after that
    reguesses: Limits = Limits(2000, 1.5)


REDRAW_LIMITS = RedrawLimits()


class RedrawBelief(Belief):
    """A full pyspiel state agreeing with what `seats` were told, one action at a time
    (`observe`); guesses are redrawn whenever a told action contradicts them.  `copy`
    lets a caller try a list of actions and keep all or none."""

    def __init__(self, state, seats: tuple[int, ...], limits: RedrawLimits = REDRAW_LIMITS):
        super().__init__(state.get_game(), seats)
        self.state = state
        self.limits = limits
        self.events: list[dict] = []      # every event, as the seats see it
        self.guessed: list[int] = []      # history indices of outcomes guessed here
        self.guessed_seats: set[int] = set()   # seats that saw a guessed outcome
        self.pinned: list[int] = []       # history indices of outcomes the teller gave that
                                          # none of the seats sees: a redraw keeps them
        self.given: list[int] = []        # history indices of every outcome the teller gave
        self.facts: dict[int, list[str]] = {}  # history index -> what the teller said followed
        self.deadline = math.inf          # when redrawing must stop (OutOfTime after it)
        self._mover_known: tuple[int, bool] | None = None   # (history length, answer)
        self._then: list[str] | None = None    # what follows the action being observed

    def copy(self) -> Self:
        other = copy.copy(self)
        other.state = self.state.clone()
        other.events = list(self.events)
        other.guessed = list(self.guessed)
        other.guessed_seats = set(self.guessed_seats)
        other.pinned = list(self.pinned)
        other.given = list(self.given)
        other.facts = dict(self.facts)
        other.deadline = math.inf
        other._then = None
        return other

    # --- applying ----------------------------------------------------------------------

    def apply(self, action: int) -> dict:
        """Apply a decision or outcome; the event as the seats see it (a chance outcome
        none of them sees reads `deal ?`, even when the teller gave it)."""
        event = apply_told(self.state, action, self.seats)
        self.events.append(event)
        return event

    def deal(self, rng: random.Random) -> list[dict]:
        """Chance outcomes drawn by their probabilities up to a decision (the truth, when
        the one keeping the game deals)."""
        events = []
        while self.state.is_chance_node():
            events.append(self.apply(sample_outcome(self.state.chance_outcomes(), rng)))
        return events

    def observe(self, action: str, rng: random.Random, then: list[str] | None = None,
                seat: int | None = None, said: str | None = None) -> dict:
        """Apply one told action (`?` or `<verb> ?` for an outcome the seats did not see),
        played by `seat` when one is named; `then`, when given, is exactly what followed
        it in public, which the guesses must agree with.  Its event as the seats see it;
        a BeliefError says what is wrong (`said`: the action as it was written, for
        messages)."""
        said = action if said is None else said
        self._then = then
        state = self.state
        if state.is_terminal():
            raise Impossible(f"{said!r}: the game is over ({state.turn_string()})")
        if is_unknown(action):
            if seat is not None:
                raise OutOfTurn(f"{said!r}: an unknown outcome is chance's, not p{seat}'s")
            event = self.apply(self._guess(action, rng))
            self._record_facts(then)
            return event
        try:
            told = self.action_id(state.core, action)
        except MalformedActionError as err:
            raise Unreadable(str(err)) from None
        except IllegalActionError as err:     # a decision where chance moves, or the reverse
            raise OutOfTurn(str(err)) from None
        except ActionError as err:
            raise Unreadable(str(err)) from None
        self._make_legal(told, seat, action, rng)
        core = self.state.core
        given_hidden = core.is_chance() and not any(
            core.chance_seen_by(s, told) for s in self.seats)
        if core.is_chance():
            self.given.append(len(self.state.history()))
        if given_hidden:
            self.pinned.append(len(self.state.history()))
        event = self.apply(told)
        self._record_facts(then)
        return event

    def _record_facts(self, then: list[str] | None) -> None:
        if then is not None:
            self.facts[len(self.state.history()) - 1] = list(then)

    def _follows(self, world, action: int) -> bool:
        """Whether applying `action` to `world` is followed by what the teller said."""
        return self._then is None or self.would_follow(world, action, list(self._then))

    def turn_told(self) -> bool:
        """Whether a decision has been played: from then on whose turn it is follows from
        public events in every koloda game (only Durak's first attacker hangs on cards)."""
        return any(event["player"] is not None for event in self.events)

    def mover_known(self, rng: random.Random, tries: int = 12) -> bool:
        """Whether the seats can tell whose turn it is: always, unless guessed cards
        decide it (and no decision told it yet).  Fresh guesses that replay the game to
        another player to move show it is not known."""
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
        """An outcome for `?`: drawn by its probability among those no seat would see,
        so the guess agrees with everything they saw."""
        state = self.state
        core = state.core
        if not core.is_chance():
            raise OutOfTurn(f"{text!r} stands for a chance outcome, but it is a player's "
                            f"turn ({state.turn_string()})")
        outcomes = core.chance_outcomes()
        verb = state.action_to_string(-1, outcomes[0][0]).split()[0]
        words = text.split()
        if len(words) == 2 and words[0].lower() != verb:
            raise OutOfTurn(f"{text!r}: the chance outcome due is '{verb} ...' "
                            f"({state.turn_string()})")
        hidden = self.hidden(core)
        if not hidden:
            seats = ", ".join(f"p{s}" for s in self.seats)
            raise Impossible(f"{text!r}: {seats} sees this outcome, so send it, as "
                             f"'{verb} <card>' ({state.turn_string()})")
        fitting = [(o, p) for o, p in hidden if self._follows(core, o)]
        if not fitting:
            if not self.redraw(lambda world: any(self._follows(world, o)
                                                 for o, _ in self.hidden(world)), rng):
                raise Impossible(f"{text!r}: no outcome the seats did not see is followed "
                                 f"by {self._then!r}")
            core = self.state.core
            fitting = [(o, p) for o, p in self.hidden(core) if self._follows(core, o)]
        outcome = draw(fitting, rng)
        self.guessed.append(len(state.history()))
        self.guessed_seats.update(p for p in range(core.rules.num_players)
                                  if core.chance_seen_by(p, outcome))
        return outcome

    def _make_legal(self, action: int, seat: int | None, text: str,
                    rng: random.Random) -> None:
        """Make `action` legal (played by `seat` if named) by redrawing the hidden cards
        from the seats' information, or raise: no world they cannot rule out allows it."""
        state = self.state
        mover = state.current_player()
        if seat is None or seat == mover:
            if state.core.is_legal(action) and self._follows(state.core, action):
                return
            if mover in self.seats:             # the seat's own move: its cards decide
                try:
                    state.string_to_action(mover, text)
                except ActionError as err:
                    raise Impossible(str(err)) from None
        who = "chance" if mover < 0 else f"p{mover}"
        refused: BeliefError
        if seat is not None and seat != mover:
            refused = OutOfTurn(f"{text!r}: it is not p{seat}'s turn; {who} is to move "
                                f"({state.turn_string()})")
        elif state.core.is_legal(action):
            refused = Impossible(f"{text!r} is not followed by {self._then!r} in any world "
                                 f"koloda drew")
        else:
            refused = Impossible(f"{text!r} is not legal for {who} here "
                                 f"({state.turn_string()})")
        if mover < 0 and seat is not None:
            raise refused
        if not self.redraw(lambda core: core.is_legal(action) and (
                seat is None or core.current_player() == seat)
                and self._follows(core, action), rng):
            raise refused

    def redraw(self, wanted: Wanted, rng: random.Random) -> bool:
        """Replace the state by one the seats cannot tell from it for which
        `wanted(engine)` holds; whether one turned up.  Only guesses can change: the
        teller's own outcomes stay."""
        state = self.state
        if not self.guessed:
            return False
        limits = self.limits
        if self._possible(wanted, rng):
            seat, others = self.seats[0], self.seats[1:]
            views = [state.information_state_string(s) for s in others]
            history = state.history()
            deadline = min(time.monotonic() + limits.redraws.seconds, self._deadline())
            for _ in Budget(limits.redraws.tries, deadline):
                world = state.resample_from_infostate(seat, rng.random)
                if (wanted(world.core)
                        and all(world.information_state_string(s) == view
                                for s, view in zip(others, views))
                        and all(world.history()[i] == history[i] for i in self.pinned)):
                    self.state = world
                    return True
        # The game's resampler keeps what it takes as public, such as whose turn it is;
        # when a guess decided that wrongly (Durak's first attacker), guess afresh.
        deadline = min(time.monotonic() + limits.reguesses.seconds, self._deadline())
        for _ in Budget(limits.reguesses.tries, deadline):
            replayed = self._reguess(rng)
            if replayed is not None and wanted(replayed[0]):
                world = state.get_game().new_initial_state()
                for action in replayed[1]:
                    world.apply_action(action)
                self.state = world
                return True
        return False

    def _deadline(self) -> float:
        if time.monotonic() > self.deadline:
            raise OutOfTime("the time for redrawing guessed cards is spent")
        return self.deadline

    def _reguess(self, rng: random.Random) -> tuple[Any, list[int]] | None:
        """The history replayed with every guessed outcome drawn afresh (and what the
        teller gave kept): (engine, actions), or None when a kept action turns illegal."""
        state = self.state
        engine = self.fresh()
        guessed = set(self.guessed)
        history = state.history()
        given_later = Counter(history[i] for i in self.given)
        given_later_at = set(self.given)
        actions = []
        narrate = self.views.narration
        for index, action in enumerate(history):
            if index in given_later_at:
                given_later[action] -= 1
            if index in guessed:
                hidden = self.hidden(engine)
                # a card the teller names later is not dealt before (where the game has
                # copies, a guess keeps off that rank, which is still a world they allow)
                hidden = [(o, p) for o, p in hidden if not given_later[o]] or hidden
                if index in self.facts:
                    hidden = [(o, p) for o, p in hidden
                              if self.would_follow(engine, o, self.facts[index])]
                if not hidden:
                    return None
                action = draw(hidden, rng)
            elif not engine.is_legal(action):
                return None
            since = len(engine.events)
            engine.apply(action)
            if index in self.facts and narrate(engine, since) != self.facts[index]:
                return None
            actions.append(action)
        return engine, actions

    def _possible(self, wanted: Wanted, rng: random.Random) -> bool:
        """Whether quick worlds of the first seat show `wanted` can hold at all (a miss
        means the teller sent what no deal allows)."""
        try:
            worlds = self.state.determinizer(self.seats[0])
        except NotImplementedError:
            return True
        deadline = min(time.monotonic() + self.limits.quick.seconds, self._deadline())
        budget = Budget(self.limits.quick.tries, deadline)
        for _ in budget:
            if wanted(worlds.sample(rng)):
                return True
        return budget.out_of_time     # undecided: let the full redraws judge


# --- an external bot's strategy: repair from a recent decision ----------------------------

@dataclass(frozen=True)
class RepairLimits:
    """How hard `RepairBelief` looks for a world when the one it holds is contradicted."""

    #: worlds tried from each decision point
    resamples: int = 3000
    #: worlds tried of the whole game afresh
    replays: int = 3000
    #: decision points tried, the latest first
    anchors: int = 3
    #: the most time one repair may take
    seconds: float = 5.0


REPAIR_LIMITS = RepairLimits()


class RepairBelief(Belief):
    """One seat's game as it was told, kept as an engine world: `tell(events)` as they
    come, `position(legal)` at the seat's turn (an Impossible when no world is found).

    Each event is applied as it is: decisions, outcomes the seat saw, and for `deal ?` a
    guess.  When an event (or the turn and legal actions sent at the seat's turn)
    contradicts the world, `repair` looks for another:

    1. from the position before one of the last decisions (any player's, the latest
       first), the hidden cards redrawn by the game's own resampler and the events since
       replayed with fresh guesses;
    2. else the whole game replayed with every guess drawn afresh.

    Any world that agrees will do, so every other try guesses a hidden outcome as much
    more likely the more often public events after it name its card (a card later laid,
    matched or played was probably in that hand): that finds deals public facts pin down
    (Platinum Fish's opponent laying two pairs and then matching a third card of one of
    them) that blind guesses would find once in a hundred thousand tries."""

    def __init__(self, game, seat: int, rng: random.Random,
                 limits: RepairLimits = REPAIR_LIMITS):
        super().__init__(game, (seat,))
        self.seat = seat
        self.rng = rng
        self.limits = limits
        self.events: list[dict] = []
        self.engine = self.fresh()
        self.actions: list[int] = []     # the world's history: one action per event
        self.anchors: list[int] = []     # event counts at which a player was to decide
        self._decided = False            # whether a decision has been told yet
        self._state = game.new_initial_state()
        self.repairs = 0

    def tell(self, events: list[dict]) -> None:
        """Apply the events in order (Impossible when no world agrees with them)."""
        for event in events:
            if self._decided and self.engine.current_player() >= 0:
                self._anchor()
            self.events.append(event)
            world = self.engine.copy()
            action = self._apply(world, event)
            if action is not None:
                self.engine = world
                self.actions.append(action)
            else:
                self.repair(None)
            if event.get("player") is not None:
                self._decided = True

    def position(self, legal: list[str]):
        """The state at the seat's turn, its legal actions those sent (`legal`)."""
        if not self._at_turn(self.engine, legal):
            self.repair(legal)
        if self._decided:
            self._anchor()
        return self.state()

    def state(self):
        """The world as a game state (built from its actions, reusing what is built)."""
        built = self._state.history()
        if built != self.actions[:len(built)]:
            self._state, built = self.game.new_initial_state(), []
        for action in self.actions[len(built):]:
            self._state.apply_action(action)
        return self._state

    def repair(self, legal: list[str] | None) -> None:
        """Replace the world by one that agrees with every event (and, given `legal`,
        is at the seat's turn with those legal actions); Impossible when none is found
        within the limits."""
        self.repairs += 1
        limits = self.limits
        deadline = time.monotonic() + limits.seconds
        if self.game.get_type().information != _PERFECT:
            for anchor in reversed(self.anchors[-limits.anchors:]):
                base = self.fresh()
                for action in self.actions[:anchor]:
                    base.apply(action)
                if base.is_terminal() or base.current_player() < 0:
                    continue
                tail_events = self.events[anchor:]
                mentions = self._mentions(tail_events)
                for n in Budget(limits.resamples, deadline):
                    history = base.resample_history(self.seat, self.rng)
                    world = self.fresh()
                    for action in history:
                        world.apply(action)
                    tail = self._replay(world, tail_events, legal,
                                        mentions if n % 2 == 0 else None)
                    if tail is not None:
                        self._adopt(world, history + tail)
                        return
        mentions = self._mentions(self.events)
        for n in Budget(limits.replays, deadline):
            world = self.fresh()
            actions = self._replay(world, self.events, legal,
                                   mentions if n % 2 == 0 else None)
            if actions is not None:
                self._adopt(world, actions)
                return
        raise Impossible(f"no deal found that agrees with the {len(self.events)} events "
                         f"seat {self.seat} was told")

    # --- inside -----------------------------------------------------------------------

    def _anchor(self) -> None:
        count = len(self.events)
        if not self.anchors or self.anchors[-1] != count:
            self.anchors.append(count)

    def _at_turn(self, engine, legal) -> bool:
        if engine.is_terminal() or engine.current_player() != self.seat:
            return False
        rules = engine.rules
        return [self.notation.decision_to_string(rules, a)
                for a in engine.legal_actions()] == legal

    def _adopt(self, engine, actions: list[int]) -> None:
        self.engine, self.actions = engine, list(actions)

    def _replay(self, world, events, legal, mentions=None) -> list[int] | None:
        """The actions that apply `events` to `world` (in place), or None; with
        `mentions` (per event, the public mentions of each word after it), guesses
        lean to what is mentioned later."""
        actions = []
        for index, event in enumerate(events):
            action = self._apply(world, event, mentions[index] if mentions else None)
            if action is None:
                return None
            actions.append(action)
        if legal is not None and not self._at_turn(world, legal):
            return None
        return actions

    def _apply(self, world, event: dict, mentions=None) -> int | None:
        """Apply one event to the engine `world`; its action, or None when it cannot be
        applied (the world is then spoilt)."""
        text = event.get("action")
        player = event.get("player")
        then = event.get("then", [])
        if world.is_terminal():
            return None
        if player is None and is_unknown(text):
            return self._guess(world, then, mentions) if world.is_chance() else None
        action = self._id(world, text)
        if action is None:
            return None
        if player is None:
            if not world.is_chance():
                return None
        elif world.current_player() != player:
            return None
        if not world.is_legal(action):
            return None
        return action if self.follows(world, action, then) else None

    def _guess(self, world, then, mentions=None) -> int | None:
        """Apply a drawn outcome the seat would not see, followed by `then`; with
        `mentions`, each outcome's chance multiplied for each later mention of its card."""
        outcomes = self.hidden(world)
        if mentions:
            name = self.notation.chance_to_string
            outcomes = [(o, p * (1.0 + MENTION_WEIGHT * mentions.get(
                name(world, o).split()[-1], 0))) for o, p in outcomes]
        while outcomes:
            outcome = draw(outcomes, self.rng)
            trial = world if len(outcomes) == 1 else world.copy()
            if self.follows(trial, outcome, then):
                if trial is not world:
                    world.apply(outcome)
                return outcome
            outcomes = [(o, p) for o, p in outcomes if o != outcome]
        return None

    def _mentions(self, events) -> list[dict]:
        """Per event, how often each word is named publicly after it: in decisions,
        outcomes every seat saw, and what followed (`then`)."""
        after: list[dict] = [{} for _ in events]
        counts: dict = {}
        for index in range(len(events) - 1, -1, -1):
            after[index] = counts
            event = events[index]
            public = event.get("player") is not None or \
                len(event.get("seen_by") or ()) == self.game.num_players()
            words = [] if not public else str(event.get("action", "")).split()[1:]
            for line in event.get("then") or ():
                words += str(line).split()[1:]
            if words:
                counts = dict(counts)
                for word in words:
                    counts[word] = counts.get(word, 0) + 1
        return after

    def _id(self, world, text) -> int | None:
        """The action `text` names in `world`, or None."""
        if not isinstance(text, str):
            return None
        try:
            return self.action_id(world, text)
        except ActionError:
            return None
