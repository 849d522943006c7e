// A bot for the tests of external agents, in plain Node.js: `node bad_bot.js MODE [ARG]`,
// the modes of bad_bot.py (legal, crash3, hang, garbage, illegal, silent, slow MS).
"use strict";
const readline = require("readline");

const mode = process.argv[2];
const arg = process.argv[3];
let moves = 0;
let seed = 1;

function random() {                       // a small seeded generator (mulberry32)
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function answer(message) {
  send({ type: "move", action: message.legal[Math.floor(random() * message.legal.length)] });
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    if (mode !== "silent") send({ type: "hello", name: "bad_bot.js " + mode });
  } else if (message.type === "new_game") {
    seed = message.seed;
    moves = 0;
  } else if (message.type === "go") {
    moves += 1;
    process.stderr.write(`move ${moves}: ${message.legal.length} legal\n`);
    if (mode === "crash3" && moves === 3) throw new Error("the third move");
    if (mode === "hang") {
      lines.pause();
      setInterval(() => {}, 1000);          // alive, and never answering
      return;
    }
    if (mode === "garbage") { process.stdout.write("this is not JSON {\n"); return; }
    if (mode === "illegal") { send({ type: "move", action: "fly away" }); return; }
    if (mode === "slow") { setTimeout(() => answer(message), Number(arg)); return; }
    answer(message);
  } else if (message.type === "quit") {
    process.exit(0);
  }
});
lines.on("close", () => process.exit(0));
