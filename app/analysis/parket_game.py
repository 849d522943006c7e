"""`koloda parket analyse RECORD`: a finished (or stopped) Parket game, as `koloda play` and
the protocol save it, analysed by the exact solver from the first position within reach
(solvers/parket/game.py): every move's value before and after, and the moves that threw
away a win or a draw, with the moves that kept it.  A table, or one JSON object.
"""

from __future__ import annotations

import json
import sys

from tabulate import tabulate

from koloda.games.errors import KolodaError
from koloda.protocol.record import RecordError, load_record, replay


def analyse_record(path, seconds: float, budget: float, progress=None, store=None):
    """(the record, its GameAnalysis); RecordError for a record that cannot be read or
    replayed, or of another game.  `progress`, a stream, is told when the work starts."""
    from koloda.solvers.parket.game import analyse_line
    record = load_record(path)
    game, state = replay(record, str(path))
    if game.get_type().short_name != "parket":
        raise RecordError(f"{path}: a record of {game.get_type().short_name}; koloda parket "
                          f"analyse takes a Parket game's record")
    if progress is not None:
        print(f"analysing {path}: each position within {seconds:g} s, from the end back, "
              f"at most {budget:g} s in all", file=progress, flush=True)
    try:
        analysis = analyse_line(game.new_initial_state(), state.history(), seconds, budget,
                                store=store)
    except KolodaError as error:      # a relocation cap beyond the solver's, say
        raise RecordError(f"{path}: {error}") from None
    return record, analysis


def run_analyse(path, seconds: float, budget: float, as_json: bool, progress=None,
                store=None) -> str:
    """What `koloda parket analyse` prints; once the record is read, a line on stderr
    says what the analysis may take, so a long one is not mistaken for a hung one."""
    record, analysis = analyse_record(path, seconds, budget, progress or sys.stderr, store)
    data = analysis.to_json()
    if as_json:
        return json.dumps({"game": record["game"], "players": record.get("players"), **data})
    return format_analysis(data, record.get("players"))


def seat_name(player: int, players) -> str:
    """`p0`, or `p0 (you)` where the record names its players."""
    if players and player < len(players):
        return f"p{player} ({players[player]})"
    return f"p{player}"


def mistake_lines(analysis: dict, players=None) -> list[str]:
    """One sentence per move that threw a value away, from an analysis as JSON
    (GameAnalysis.to_json, the protocol's `analyse`): "p0 (you), move 23 (7h c4),
    turned a draw into a loss; 9s d5 kept it"."""
    lines = []
    for move in analysis["moves"]:
        if move["threw_away"]:
            lines.append(f"{seat_name(move['player'], players)}, move {move['number']} "
                         f"({move['move']}), turned a {move['before']} into a "
                         f"{move['after']}; {', '.join(move['kept_by'])} kept it")
    return lines


def reach_line(analysis: dict) -> str:
    per_position = f"{analysis['seconds_per_position']:g} s"
    if analysis["first_solved"] is None:
        return f"no position of this game was solved within {per_position} a position"
    return (f"solved from move {analysis['first_solved']} on, the first position within "
            f"{per_position}; {analysis['nodes']:,} nodes in {analysis['seconds']:.1f} s")


def summary_lines(analysis: dict, players=None) -> list[str]:
    """What the end of a game shows: how far the analysis reached and every move that
    threw a value away (or that none did)."""
    return [reach_line(analysis)] + (mistake_lines(analysis, players) or [
        "no move within reach threw a win or a draw away"])


def format_analysis(analysis: dict, players=None) -> str:
    rows = []
    for move in analysis["moves"]:
        if move["before"] is None:
            continue
        length = move["moves_to_end"]
        forced = "" if length is None else f"{move['before']} in {length}"
        note = f"{', '.join(move['kept_by'])}" if move["threw_away"] else ""
        rows.append([move["number"], seat_name(move["player"], players), move["move"],
                     move["before"], move["after"], forced, note])
    out = [reach_line(analysis), ""]
    if rows:
        out.append(tabulate(rows, headers=["move", "seat", "played", "before", "after",
                                           "forced line", "moves that kept the value"],
                            tablefmt="simple", disable_numparse=True))
        out.append("")
    out += mistake_lines(analysis, players) or [
        "no move within reach threw a win or a draw away"]
    return "\n".join(out)
