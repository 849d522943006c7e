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
    fork       plays legally, after forking a child that sleeps an hour holding its pipes
    forkcrash  as fork, and raises on its third move (its child keeps its output open)
    stale      answers every move, then writes one more move nobody asked for
    flood MB   writes MB megabytes to stderr before it says hello, then plays legally

Any further arguments are ignored (the tests mark processes with one).
"""

import json
import os
import random
import sys
import time

mode = sys.argv[1]
arg = sys.argv[2] if len(sys.argv) > 2 else None
rng = random.Random(0)
moves = 0
if mode in ("fork", "forkcrash") and os.fork() == 0:
    time.sleep(3600)                         # the child: holds stdin, stdout and stderr
    os._exit(0)
if mode == "flood":
    row = b"x" * 99 + b"\n"
    for _ in range(int(arg) * 10_000):
        sys.stderr.buffer.write(row)
    sys.stderr.flush()


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
        if mode in ("crash3", "forkcrash") and moves == 3:
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
        if mode == "stale":     # both lines in one write: the second is there, unasked,
            #                     before koloda sends the next go, however busy the machine
            answer = {"type": "move", "action": rng.choice(message["legal"])}
            extra = {"type": "move", "action": message["legal"][0]}
            sys.stdout.write(json.dumps(answer) + "\n" + json.dumps(extra) + "\n")
            sys.stdout.flush()
            continue
        send({"type": "move", "action": rng.choice(message["legal"])})
    elif kind == "quit":
        sys.exit(0)
if mode == "linger":
    time.sleep(3600)
