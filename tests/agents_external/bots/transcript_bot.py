"""A bot that plays random legal moves (seeded by new_game) and writes every line it
reads and writes to the file named by its argument: the example exchange of
docs/agents.md comes from it (tests/agents_external/exchange.py)."""

import json
import random
import sys

rng = random.Random(0)
with open(sys.argv[1], "w") as transcript:
    def send(message):
        line = json.dumps(message)
        transcript.write("agent:  " + line + "\n")
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        transcript.write("koloda: " + line)
        message = json.loads(line)
        if message["type"] == "hello":
            send({"type": "hello", "name": "transcript_bot.py"})
        elif message["type"] == "new_game":
            rng = random.Random(message["seed"])
        elif message["type"] == "go":
            send({"type": "move", "action": rng.choice(message["legal"])})
        elif message["type"] == "quit":
            break
