"""A game's record: every action of a finished (or stopped) game in card notation, so that
`koloda show --record FILE` replays it and any program can read it.

A record is one JSON object:

    {"record": 1, "game": "durak", "seed": 7, "players": ["you", "ismcts(ms=500)"],
     "actions": ["deal 8d", ..., "p1 attack Ks", "p0 take", ...], "returns": [-1.0, 1.0]}

`actions` holds the chance outcomes as they are (`deal 8d`) and the decisions with their
seat (`p1 attack Ks`), in the order they happened; `returns` is there once the game is over.
`seed` and `players` say how the game came about and are optional.
"""

import json
import math
import re
import sys
from pathlib import Path

import pyspiel

from koloda import games
from koloda.games.errors import ActionError, KolodaError
from koloda.games.kit.files import UnreadableFile, read_regular
from koloda.games.kit.params import shown

RECORD_VERSION = 1
#: the largest record file read, far beyond any game's (a record is its actions as text)
MAX_RECORD_BYTES = 16 * 2**20
MAX_ACTION_CHARS = 200      # in records and in requests: the longest action is a fraction of it


class RecordError(KolodaError):
    """A record that cannot be read or replayed; the message names the file and what."""


#: a seat as actions write it: `p` and at most three ASCII digits (`p¹` is no seat)
_SEAT = re.compile(r"[pP][0-9]{1,3}", re.ASCII)


def split_seat(text: str) -> tuple[int | None, str]:
    """`"p1 attack 7s"` -> (1, "attack 7s"); an action without a seat -> (None, text)."""
    head, _, rest = text.strip().partition(" ")
    if _SEAT.fullmatch(head) and rest.strip():
        return int(head[1:]), rest.strip()
    return None, text.strip()


def record_of(state, game_string: str, seed: int | None = None,
              players: list[str] | None = None) -> dict:
    """The record of `state`'s game so far, from its history."""
    game = state.get_game()
    replay = game.new_initial_state()
    actions = []
    for action in state.history():
        player = replay.current_player()
        text = replay.action_to_string(player, action)
        actions.append(text if player < 0 else f"p{player} {text}")
        replay.apply_action(action)
    record = {"record": RECORD_VERSION, "game": game_string}
    if seed is not None:
        record["seed"] = seed
    if players is not None:
        record["players"] = list(players)
    record["actions"] = actions
    if state.is_terminal():
        record["returns"] = list(state.returns())
    return record


def save_record(record: dict, path: Path) -> Path:
    """Write `record` to `path` (folders made as needed), one JSON object."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return path


def load_record(path: Path) -> dict:
    """The record in `path`, its fields checked (not yet replayed); only a regular file
    of at most MAX_RECORD_BYTES is read, so a device, a pipe or a huge file is one error,
    not a hang."""
    try:
        data = read_regular(path, MAX_RECORD_BYTES)
    except UnreadableFile as exc:
        if str(exc).startswith("is larger than"):
            raise RecordError(f"{path}: not a koloda record: larger than "
                              f"{MAX_RECORD_BYTES // 2**20} MiB (the longest game's record "
                              f"is a small part of that)") from None
        raise RecordError(f"{path}: cannot read the record: it {exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path}: not a koloda record: not UTF-8 text (byte "
                          f"{exc.start})") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not a koloda record: line {exc.lineno}: {exc.msg}") from None
    except RecursionError:
        raise RecordError(f"{path}: not a koloda record: its JSON is nested too deeply "
                          f"(a record nests two levels)") from None
    except ValueError:                      # int() refuses more than 4300 digits
        raise RecordError(f"{path}: not a koloda record: a number has too many digits "
                          f"(more than {sys.get_int_max_str_digits()})") from None
    return check_record(record, str(path))


def check_record(record, where: str = "record") -> dict:
    """`record` itself if its fields have the right types; else a RecordError naming one."""
    if not isinstance(record, dict) or record.get("record") != RECORD_VERSION \
            or isinstance(record.get("record"), bool):
        raise RecordError(f"{where}: not a koloda record (a JSON object with \"record\": "
                          f"{RECORD_VERSION})")
    fields = {"record": int, "game": str, "seed": int, "players": list, "actions": list,
              "returns": list}
    unknown = sorted(set(record) - set(fields))
    if unknown:
        raise RecordError(f"{where}: unknown field {unknown[0]!r}")
    for name in ("game", "actions"):
        if name not in record:
            raise RecordError(f"{where}: the field {name!r} is missing")
    for name, kind in fields.items():
        if name in record and (not isinstance(record[name], kind)
                               or isinstance(record[name], bool)):
            raise RecordError(f"{where}: {name!r} must be a {kind.__name__}")
    for index, action in enumerate(record["actions"]):
        if not isinstance(action, str):
            raise RecordError(f"{where}: actions[{index}] must be a string, not "
                              f"{shown(action, 40)}")
        if len(action) > MAX_ACTION_CHARS:
            raise RecordError(f"{where}: actions[{index}] is {len(action):,} characters "
                              f"long; an action has at most {MAX_ACTION_CHARS}")
    for index, value in enumerate(record.get("returns", ())):
        if not _finite_number(value):
            raise RecordError(f"{where}: returns[{index}] must be a finite number, not "
                              f"{shown(value, 40)}")
    return record


def _finite_number(value) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def replay(record: dict, where: str = "record"):
    """The record's game and its state after every action, each action checked: a seat that
    is not to move, a decision where chance is due, an illegal action, or returns that
    disagree are RecordErrors naming the action."""
    try:
        game = games.load_game(record["game"])
    except KolodaError as exc:
        raise RecordError(f"{where}: game {shown(record['game'], 40)}: {exc}") from None
    state = game.new_initial_state()
    for index, text in enumerate(record["actions"]):
        state.apply_action(_action(state, text, f"{where}: actions[{index}] {shown(text, 40)}"))
    if "returns" in record:
        if not state.is_terminal():
            raise RecordError(f"{where}: the record gives returns, but its game is not over "
                              f"after its {len(record['actions'])} actions")
        if [round(r, 9) for r in state.returns()] != [round(r, 9) for r in record["returns"]]:
            raise RecordError(f"{where}: the record's returns {record['returns']} are not "
                              f"the game's {list(state.returns())}")
    return game, state


def _action(state, text: str, where: str) -> int:
    """The action id of one record entry at `state`."""
    if state.is_terminal():
        raise RecordError(f"{where}: the game is already over")
    player = state.current_player()
    seat, body = split_seat(text)
    head = (text.split() or [""])[0]
    if seat is None and _meant_as_seat(head) and not _SEAT.fullmatch(head):
        raise RecordError(f"{where}: {shown(head, 20)} is no seat; a seat is p and at most "
                          f"three ASCII digits (p0, p1, ...)")
    if seat is not None and player < 0:
        raise RecordError(f"{where}: chance is to act here, not p{seat}")
    if seat is None and player >= 0:
        raise RecordError(f"{where}: p{player} is to move here; a decision is written "
                          f"with its seat, as 'p{player} ...'")
    if seat is not None and seat != player:
        raise RecordError(f"{where}: p{player} is to move here, not p{seat}")
    try:
        return state.string_to_action(body)
    except ActionError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _meant_as_seat(word: str) -> bool:
    """`p` and digits of any kind (`p¹`, `p١`, `p1234`): a seat miswritten, which is
    better named as such than read as an action without a seat."""
    return word[:1] in ("p", "P") and word[1:].isdigit()


def play_record(game: pyspiel.Game, record: dict):
    """A chooser for `koloda.play.show.log_game` that plays the record's actions in order."""
    entries = iter(enumerate(record["actions"]))

    def pick(state) -> int:
        index, text = next(entries)
        return _action(state, text, f"actions[{index}] {shown(text, 40)}")
    return pick
