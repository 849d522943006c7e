"""Two deals that differ only in cards one seat cannot see, for the protocol's hidden-
information tests: a game played out, then two of its chance outcomes that seat never
sees exchanged, kept as long as the seat's information state is the same in both."""

from __future__ import annotations

from dataclasses import dataclass

from koloda import games
from koloda.protocol.record import split_seat

from .helpers import Server


@dataclass
class Twins:
    game: str
    seat: int
    first: list[str]        # the actions of one deal, chance outcomes as they are
    second: list[str]       # the same with two outcomes the seat never sees exchanged
    swapped: tuple[int, int]


def played_game(game: str, seed: int, agent: str = "random") -> tuple[list[str], list[list]]:
    """A whole game koloda dealt, every seat played by `agent`: its record's actions and,
    per action, the seats that saw it (None for a decision)."""
    server = Server()
    players = games.load_game(game).num_players()
    table = server.ok(type="new", game=game, seats=list(range(players)), seed=seed)
    session, view = table["session"], table["view"]
    while view["status"] != "over":
        view = server.ok(type="hint", session=session, agent=agent, apply=True)["view"]
    events = server.ok(type="state", session=session, since=0)["view"]["events"]
    return view["record"]["actions"], [e.get("seen_by") for e in events]


def replayable_prefix(game, actions: list[str], seat: int) -> list[str]:
    """The information state strings of `seat` after each action, up to the first action
    that cannot be played."""
    state = game.new_initial_state()
    infos = []
    for text in actions:
        _, body = split_seat(text)
        try:
            action = state.parse_action(body)
        except Exception:
            break
        legal = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                 else state.legal_actions())
        if action not in legal:
            break
        state.apply_action(action)
        infos.append(state.information_state_string(seat))
    return infos


def twins(game_string: str, seed: int, seat: int = 0, min_decisions: int = 6) -> Twins:
    """The pair of deals whose common part (for `seat`) holds the most decisions."""
    game = games.load_game(game_string)
    actions, seen = played_game(game_string, seed)
    reference = replayable_prefix(game, actions, seat)
    hidden = [i for i, s in enumerate(seen) if s is not None and seat not in s]
    best = None
    for a_index, i in enumerate(hidden):
        for j in hidden[a_index + 1:]:
            verb_i, _, card_i = actions[i].partition(" ")
            verb_j, _, card_j = actions[j].partition(" ")
            if verb_i != verb_j or card_i == card_j:
                continue
            second = list(actions)
            second[i], second[j] = actions[j], actions[i]
            infos = replayable_prefix(game, second, seat)
            same = 0
            while same < min(len(infos), len(reference)) and infos[same] == reference[same]:
                same += 1
            decisions = sum(1 for text in actions[:same] if split_seat(text)[0] is not None)
            if j < same and (best is None or decisions > best[0]):
                best = (decisions, Twins(game_string, seat, actions[:same], second[:same],
                                         (i, j)))
    assert best is not None and best[0] >= min_decisions, (game_string, seed, best)
    return best[1]
