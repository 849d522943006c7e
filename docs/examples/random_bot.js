// A bot for koloda's agent protocol (docs/agents.md) in plain Node.js, no packages:
// one JSON object per line on stdin, one per line on stdout.  It plays a random legal
// action, from a generator seeded by each game's seed, so a game replays alike.
//
//     [agents.random_js]
//     command = ["node", "docs/examples/random_bot.js"]

"use strict";
const readline = require("readline");

let random = Math.random;

// mulberry32: a small seeded generator
function seeded(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      send({ type: "hello", name: "random_bot.js" });
      break;
    case "new_game":
      random = seeded(message.seed);
      break;
    case "go": {
      const legal = message.legal;
      send({ type: "move", action: legal[Math.floor(random() * legal.length)] });
      break;
    }
    case "game_over":
      break;
    case "quit":
      process.exit(0);
  }
});
lines.on("close", () => process.exit(0));
