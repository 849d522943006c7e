"""A bot for the tests of external agents, in plain Python (no koloda): `bad_bot.py MODE
[ARG]` plays random legal moves, except as MODE says:

    legal      never fails
    crash3     raises on its third move of a game
    hang       never answers its first move
    garbage    answers its first move with a line that is not JSON
    illegal    answers an action that is not legal
    silent     never says hello
    slow MS    takes MS milliseconds a move (to overrun a clock)
    record F   plays legally, and appends every line it reads to file F
    linger     plays legally, and does not exit at the end of its input (only at quit)

Any further arguments are ignored (the tests mark processes with one).
"""

import json
import random
import sys
import time

mode = sys.argv[1]
arg = sys.argv[2] if len(sys.argv) > 2 else None
rng = random.Random(0)
moves = 0


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    if mode == "record":
        with open(arg, "a") as log:
            log.write(line)
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        if mode == "silent":
            continue
        send({"type": "hello", "name": f"bad_bot.py {mode}"})
    elif kind == "new_game":
        rng = random.Random(message["seed"])
        moves = 0
    elif kind == "go":
        moves += 1
        print(f"move {moves}: {len(message['legal'])} legal", file=sys.stderr, flush=True)
        if mode == "crash3" and moves == 3:
            raise RuntimeError("the third move")
        if mode == "hang":
            time.sleep(3600)
        if mode == "garbage":
            sys.stdout.write("this is not JSON {\n")
            sys.stdout.flush()
            continue
        if mode == "illegal":
            send({"type": "move", "action": "fly away"})
            continue
        if mode == "slow":
            time.sleep(int(arg) / 1000)
        send({"type": "move", "action": rng.choice(message["legal"])})
    elif kind == "quit":
        sys.exit(0)
if mode == "linger":
    time.sleep(3600)
