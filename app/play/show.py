"""A game written out move by move in card notation: one between random players, or a
recorded one.

In a random game both the players' choices and the chance outcomes come from one
`random.Random(seed)`, so a game string and a seed always give the same log.
"""

import random
from collections.abc import Callable

import pyspiel

from koloda.games.kit.outcomes import winners
from koloda.games.kit.random_play import choose
from koloda.protocol.record import play_record, replay

CHANCE = "      chance  "  # as wide as a numbered move's "  12  " prefix
NARRATION = "            = "  # what followed, under the action that led to it


def show_game(game: pyspiel.Game, seed: int) -> str:
    """The log of one game between random players, seeded."""
    rng = random.Random(seed)
    return log_game(game, f"{game}  seed {seed}", lambda state: choose(state, rng))


def show_record(record: dict, where: str) -> str:
    """The log of a recorded game (`koloda play` saves them), checked whole first."""
    game, _ = replay(record, where)
    players = record.get("players")
    title = f"{game}" + (f"  seed {record['seed']}" if "seed" in record else "")
    if players:
        title += "  " + ", ".join(f"p{seat} {name}" for seat, name in enumerate(players))
    return log_game(game, title, play_record(game, record))


def log_game(game: pyspiel.Game, title: str, pick: Callable) -> str:
    """The log of one game whose actions `pick(state)` chooses: the opening chance outcomes
    and the position they produce (a deal is a dozen or more outcomes, so they are wrapped,
    not one per line), then one line per action with what followed from it (a match, a
    deal's scores), then the returns and the winners. A `pick` that runs out of actions
    (StopIteration) before the end leaves the log as far as the game went."""
    state = game.new_initial_state()
    lines = [title]

    opening = []
    while state.is_chance_node():
        try:
            action = pick(state)
        except StopIteration:
            break
        opening.append(state.action_to_string(pyspiel.PlayerId.CHANCE, action))
        state.apply_action(action)
    if opening:
        lines += [CHANCE + row for row in wrap_items(opening, width=86)]
        lines += ["", str(state).rstrip(), ""]

    moves = 0
    while not state.is_terminal():
        player = state.current_player()
        try:
            action = pick(state)
        except StopIteration:
            lines += ["", f"the record stops after {moves} moves, before the game's end"]
            return "\n".join(lines)
        text = state.action_to_string(player, action)
        if player == pyspiel.PlayerId.CHANCE:
            lines.append(CHANCE + text)
        else:
            moves += 1
            lines.append(f"{moves:4d}  p{player}  {text}")
        since = len(state.core.events)
        state.apply_action(action)
        lines += [NARRATION + line for line in state.narration(since)]

    lines += ["", f"game over after {moves} moves"] + returns_lines(state.returns())
    return "\n".join(lines)


def wrap_items(items: list[str], width: int) -> list[str]:
    """Join items with ", " into rows of at most `width` characters, never splitting one."""
    rows = [items[0]]
    for item in items[1:]:
        if len(rows[-1]) + 2 + len(item) > width:
            rows[-1] += ","
            rows.append(item)
        else:
            rows[-1] += ", " + item
    return rows


def returns_lines(returns: list[float]) -> list[str]:
    """Returns per player, then who won: the players with the highest return."""
    lines = ["returns: " + ", ".join(f"p{p} {r:+g}" for p, r in enumerate(returns))]
    seats = [f"p{p}" for p in winners(returns)]
    if not seats:
        lines.append("result: draw")
    else:
        lines.append(f"{'winner' if len(seats) == 1 else 'winners'}: {', '.join(seats)}")
    return lines
