"""A game as one seat was told it, kept as a full state that agrees with everything the
seat saw: `koloda agent` hands it to koloda's own agents, which look at it only through
`resample_from_infostate` (solvers/agent.py), so any state the seat cannot tell from the
true one gives the same view, hence the same move, as the true state would.

Each event the seat heard is applied as it is: decisions, outcomes it saw, and for an
outcome it did not see (`deal ?`) a guess, drawn by its probability among the outcomes
the seat would not see.  A guess can be contradicted later (an opponent plays a card the
guess put in the stock; what followed an event, its `then`, differs; the turn or the
legal actions sent with `go` differ).  The tracker then looks for another world:

1. from the position before one of the last decisions (any player's, the latest first),
   the hidden cards redrawn by the game's own resampler and the events since replayed
   with fresh guesses;
2. else the whole game replayed with every guess drawn afresh.

Any world that agrees will do: the agent sees only the game's resample of the seat's
information state, the same for all of them.  So the search may guess as it likes, and
every other try does: it draws a hidden outcome as much more likely the more often the
public events after it name it (a card later laid, matched or played was probably in
that hand), which finds deals that public facts pin down (Platinum Fish's opponent
laying two pairs and then matching a third card of one of them) that blind guesses
would find once in a hundred thousand tries.  Worlds are tried as engines (cheap), and
the state built once for the one that fits.  Both stop after a bounded number of tries
and seconds (TrackError: the bot then cannot know where it stands).

The protocol server's sessions (app/protocol/session.py) solve the same problem for an
app that deals; this tracker differs in that it redraws only at decision points, after
the first decision, where every game's resampler holds (Platinum Fish's assumes no pair
in a hand, true once a deal is complete; Durak's first attacker hangs on hidden cards),
and tries many worlds quickly, which rare facts need (a deal's last card after which
both players lay pairs; a Snitch set that needs one particular card).
"""

from __future__ import annotations

import random
import time

import pyspiel

from koloda.games.errors import ActionError
from koloda.games.kit.chance import sample_outcome
from koloda.games.kit.told import UNKNOWN

#: worlds tried from each decision point, and of the whole game afresh
RESAMPLES = 3000
REPLAYS = 3000
#: decision points tried (the latest first)
ANCHORS = 3
#: the most time one repair may take
REPAIR_SECONDS = 5.0
#: how much likelier a guess is for each later public mention of its card
MENTION_WEIGHT = 8.0
PERFECT = pyspiel.GameType.Information.PERFECT_INFORMATION


class TrackError(Exception):
    """No state agreeing with what the seat was told was found."""


class Tracker:
    """One seat's game: `tell(events)` as they come, `position(legal)` at its turn."""

    def __init__(self, game, seat: int, rng: random.Random):
        self.game = game
        self.seat = seat
        self.rng = rng
        self.events: list[dict] = []
        self._start = game.new_initial_state()
        self._notation = type(self._start).notation
        self._views = type(self._start).views
        self.engine = self._fresh()
        self.actions: list[int] = []     # the world's history: one action per event
        self.anchors: list[int] = []     # event counts at which a player was to decide
        self._decided = False            # whether a decision has been told yet
        self._state = game.new_initial_state()
        self.repairs = 0

    def tell(self, events: list[dict]) -> None:
        """Apply the events in order (TrackError when no world agrees with them)."""
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
                self._repair(None)
            if event.get("player") is not None:
                self._decided = True

    def position(self, legal: list[str]):
        """The state at the seat's turn, its legal actions those sent (`legal`)."""
        if not self._at_turn(self.engine, legal):
            self._repair(legal)
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

    # --- inside -----------------------------------------------------------------------

    def _fresh(self):
        return self.game.initial_engine(type(self._start).engine_class)

    def _anchor(self) -> None:
        count = len(self.events)
        if not self.anchors or self.anchors[-1] != count:
            self.anchors.append(count)

    def _at_turn(self, engine, legal) -> bool:
        if engine.is_terminal() or engine.current_player() != self.seat:
            return False
        rules = engine.rules
        return [self._notation.decision_to_string(rules, a)
                for a in engine.legal_actions()] == legal

    def _repair(self, legal) -> None:
        """Replace the world by one that agrees with every event (and, given `legal`,
        is at the seat's turn with those legal actions)."""
        self.repairs += 1
        deadline = time.monotonic() + REPAIR_SECONDS
        if self.game.get_type().information != PERFECT:
            for anchor in reversed(self.anchors[-ANCHORS:]):
                base = self._fresh()
                for action in self.actions[:anchor]:
                    base.apply(action)
                if base.is_terminal() or base.current_player() < 0:
                    continue
                tail_events = self.events[anchor:]
                mentions = self._mentions(tail_events)
                tries = RESAMPLES
                while tries and time.monotonic() < deadline:
                    tries -= 1
                    history = base.resample_history(self.seat, self.rng)
                    world = self._fresh()
                    for action in history:
                        world.apply(action)
                    tail = self._replay(world, tail_events, legal,
                                        mentions if tries % 2 else None)
                    if tail is not None:
                        self._adopt(world, history + tail)
                        return
        mentions = self._mentions(self.events)
        tries = REPLAYS
        while tries and time.monotonic() < deadline:
            tries -= 1
            world = self._fresh()
            actions = self._replay(world, self.events, legal, mentions if tries % 2 else None)
            if actions is not None:
                self._adopt(world, actions)
                return
        raise TrackError(f"no deal found that agrees with the {len(self.events)} events "
                         f"seat {self.seat} was told")

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
        if player is None and _unknown(text):
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
        since = len(world.events)
        world.apply(action)
        return action if self._views.narration(world, since) == then else None

    def _guess(self, world, then, mentions=None) -> int | None:
        """Apply a drawn outcome the seat would not see, followed by `then`; with
        `mentions`, each outcome's chance multiplied for each later mention of its card."""
        outcomes = [(o, p) for o, p in world.chance_outcomes()
                    if not world.chance_seen_by(self.seat, o)]
        if mentions:
            name = self._notation.chance_to_string
            outcomes = [(o, p * (1.0 + MENTION_WEIGHT * mentions.get(
                name(world, o).split()[-1], 0))) for o, p in outcomes]
        while outcomes:
            total = sum(p for _, p in outcomes)
            outcome = sample_outcome([(o, p / total) for o, p in outcomes], self.rng)
            trial = world if len(outcomes) == 1 else world.copy()
            since = len(trial.events)
            trial.apply(outcome)
            if self._views.narration(trial, since) == then:
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
        """The action `text` names in `world` (the notation may read the position)."""
        if not isinstance(text, str):
            return None
        try:
            return self._notation.parse(world, text)
        except ActionError:
            return None


def _unknown(text) -> bool:
    words = text.split() if isinstance(text, str) else []
    return bool(words) and words[-1] == UNKNOWN and len(words) <= 2
