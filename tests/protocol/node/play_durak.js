// A full game of Durak between two koloda sessions, driven from Node.js.
//
//   node play_durak.js stdio <python> [args...]   start `koloda serve` as a child process
//   node play_durak.js http <url>                 speak to `koloda serve --http`
//
// A table session (both seats, koloda deals) is the game; two player sessions, one per
// seat, are told what their seat sees (the other seat's cards as `deal ?`, `draw ?`) and
// each asks `hint` for its seat's moves.  After every move each player session's view must
// match the table's view of that seat.  Then the protocol's errors are checked.  Prints
// one JSON line with the result; exits 1 on any mismatch.
"use strict";

const assert = require("node:assert/strict");
const { Client, ProtocolError } = require("./koloda_client");

// What `seat` is told of the table's events: outcomes it did not see as unknown.
function seenBy(events, seat) {
  return events.map((e) => {
    if (e.player === null) {
      return e.seen_by.includes(seat) ? e.action : e.action.split(" ")[0] + " ?";
    }
    return `p${e.player} ${e.action}`;
  });
}

async function expectError(promise, code) {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ProtocolError) {
      assert.equal(err.code, code, err.message);
      return err.code;
    }
    throw err;
  }
  throw new Error(`expected error ${code}`);
}

async function main() {
  const [mode, ...rest] = process.argv.slice(2);
  const koloda = mode === "stdio" ? Client.stdio(rest[0], rest.slice(1)) : Client.http(rest[0]);
  const seed = 11;

  const hello = await koloda.request("hello");
  assert.equal(hello.protocol, 2);
  assert.ok(hello.games.some((g) => g.name === "durak"));
  assert.ok(hello.agents.some((a) => a.name === "ismcts"));

  const table = await koloda.request("new", { game: "durak", seats: [0, 1], seed });
  const players = [];
  for (const seat of [0, 1]) {
    const player = await koloda.request("new", { game: "durak", seats: [seat], dealer: "app", seed: seed + 1 + seat });
    await koloda.request("observe", { session: player.session, actions: seenBy(table.events, seat) });
    players.push(player.session);
  }

  let view = table.view;
  let moves = 0;
  while (view.status !== "over") {
    const seat = view.to_move;
    const hint = await koloda.request("hint", { session: players[seat], agent: "ismcts", sims: 30 });
    assert.equal(hint.player, seat);
    const shares = Object.values(hint.policy).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(shares - 1) < 0.01, `policy sums to ${shares}`);
    const played = await koloda.request("observe", { session: table.session, actions: [`p${seat} ${hint.action}`] });
    view = played.view;
    const truth = await koloda.request("state", { session: table.session });
    for (const other of [0, 1]) {
      const seen = await koloda.request("observe", { session: players[other], actions: seenBy(played.events, other) });
      assert.deepEqual(seen.view.seats[0].observation, truth.view.seats[other].observation);
      assert.equal(seen.view.status, view.status);
    }
    moves += 1;
  }
  for (const other of [0, 1]) {
    const end = await koloda.request("state", { session: players[other] });
    assert.deepEqual(end.view.returns, view.returns);
  }

  // Errors: each a JSON error object with its code, and the server carries on.
  const codes = [];
  const raw = await koloda.sendText("{not json");
  assert.equal(raw.ok, false);
  codes.push(raw.error.code);
  assert.equal(raw.error.code, "bad_json");
  codes.push(await expectError(koloda.request("shuffle"), "unknown_request"));
  codes.push(await expectError(koloda.request("state", { session: "nope" }), "unknown_session"));
  const fresh = await koloda.request("new", { game: "durak", seats: [0], seed: 5 });
  const mover = fresh.view.to_move;
  codes.push(await expectError(koloda.request("observe", { session: fresh.session, actions: ["attack 99"] }), "malformed_action"));
  codes.push(await expectError(koloda.request("observe", { session: fresh.session, actions: [`p${1 - mover} pass`] }), "out_of_turn"));
  if (mover === 0) {
    const notHeld = ["6c", "6d", "6h", "6s", "7c", "7d", "7h", "7s", "8c"].find((c) => !fresh.view.seats[0].hand.includes(c));
    codes.push(await expectError(koloda.request("observe", { session: fresh.session, actions: [`attack ${notHeld}`] }), "illegal_action"));
  } else {
    codes.push(await expectError(koloda.request("observe", { session: fresh.session, actions: ["take"] }), "illegal_action"));
  }
  await koloda.request("close", { session: fresh.session });
  await expectError(koloda.request("state", { session: fresh.session }), "unknown_session");
  await koloda.request("hello");

  for (const session of [table.session, ...players]) {
    await koloda.request("close", { session });
  }
  if (mode === "stdio") {
    await koloda.request("quit");
  }
  await koloda.close();
  console.log(JSON.stringify({ moves, returns: view.returns, codes }));
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : err);
  process.exit(1);
});
