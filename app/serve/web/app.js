// koloda in the browser: a client of the koloda protocol (docs/protocol.md) over HTTP.
//
// Every exchange with the server is one JSON request POSTed to the page's own address:
// `hello` lists the games and agents, `new` opens a session for the person's seat (every
// seat when watching), `observe` plays the person's move, `move` with `apply: true` plays
// an agent's seat, `hint` asks an agent for the person's move (with `apply: true` it plays
// a session seat: that is how watch mode moves), `close` ends the session.  Nothing else
// is needed: this file is what embedding koloda in an app looks like.
"use strict";

const ENDPOINT = location.pathname.replace(/[^/]*$/, "");
// A server started with a token is opened at /#token=TOKEN: a fragment stays in the
// browser, so the token reaches the server only as the Authorization header of requests.
const TOKEN = new URLSearchParams(location.hash.slice(1).replace(/\+/g, "%2B")).get("token");
const HEADERS = { "Content-Type": "application/json", Accept: "application/json" };
if (TOKEN) HEADERS.Authorization = `Bearer ${TOKEN}`;
const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const SUITED = /^([2-9TJQKA])([cdhs])$/;
const RANKED = /^([2-9TJQKAX])$/;
const MESSAGE_MS = 5000;

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

const S = {
  hello: null,
  requestId: 0,
  gen: 0,            // bumped by every new game, so a loop of an old game stops
  busy: false,
  paused: false,
  selected: null,    // Parket: {card, from} chosen, waiting for a cell
};

// What is particular to each game's drawing, by its short name.  A game not here is drawn
// from its view's fields (`genericTable`, `genericSeatInfo`: its public fields, card lists,
// each seat's count and fields, a board grid) and its moves are buttons of the legal list.
//   table(box, seen)              the felt between the other seats and the person's hand
//   seatInfo(seat, player, seen)  lines under a seat's hand (`player`: its `players` entry)
//   handVerbs                     `<verb> <card>` actions played by clicking the card
//   wild                          a rank drawn as wild
//   render()                      the whole position, for a drawing all its own (a board
//                                 of cells to click), and actionsNote(box) instead of buttons
const PARTICULAR = {
  durak: { table: durakTable, seatInfo: durakSeatInfo, handVerbs: ["attack", "throw", "beat"] },
  platinum_fish: { table: fishTable, seatInfo: fishSeatInfo, handVerbs: ["ask"] },
  snitch: { table: snitchTable, seatInfo: snitchSeatInfo, handVerbs: ["discard"], wild: "2" },
  parket: { render: renderParket, actionsNote: parketNote },
};

function particular() {
  return PARTICULAR[S.base] || {};
}

// --- the protocol ----------------------------------------------------------------------

async function send(request) {
  request = { id: ++S.requestId, ...request };
  wire("→", request);
  let reply;
  try {
    const response = await fetch(ENDPOINT, { method: "POST", headers: HEADERS, body: JSON.stringify(request) });
    reply = await response.json();
  } catch (err) {
    reply = { ok: false, error: { code: "unreachable", message: `no answer from the server (${err.message})` } };
  }
  wire("←", reply);
  return reply;
}

function wire(arrow, message) {
  const pre = $("#wire");
  let text = JSON.stringify(message);
  if (text.length > 400) text = text.slice(0, 400) + " …";
  const lines = (pre.textContent ? pre.textContent.split("\n") : []).concat(`${arrow} ${text}`);
  pre.textContent = lines.slice(-40).join("\n");
}

function closeSession() {
  if (S.session) {
    // keepalive: sent even as the page goes away (a beacon cannot carry the token)
    const body = JSON.stringify({ type: "close", session: S.session });
    fetch(ENDPOINT, { method: "POST", headers: HEADERS, body, keepalive: true }).catch(() => {});
    S.session = null;
  }
}

// --- cards -------------------------------------------------------------------------------

function isCard(token) {
  return SUITED.test(token) || RANKED.test(token);
}

function rankText(rank) {
  return rank === "T" ? "10" : rank;
}

function cardText(token) {
  const m = SUITED.exec(token);
  return m ? rankText(m[1]) + SUITS[m[2]] : rankText(token);
}

function cardElement(token, extra = "") {
  const el = document.createElement("div");
  el.className = `card ${extra}`.trim();
  el.dataset.card = token;
  const suited = SUITED.exec(token);
  if (suited) {
    const red = suited[2] === "h" || suited[2] === "d";
    el.classList.add(red ? "red" : "black");
    el.innerHTML = `<span class="corner">${rankText(suited[1])}<br>${SUITS[suited[2]]}</span>` +
      `<span class="pip">${SUITS[suited[2]]}</span>`;
    el.title = token;
  } else if (token === "X") {
    el.classList.add("joker");
    el.innerHTML = `<span class="corner">X</span><span class="pip">X</span>`;
    el.title = "joker (X)";
  } else {
    el.classList.add("ranked");
    if (token === particular().wild) el.classList.add("wild");
    el.innerHTML = `<span class="corner">${rankText(token)}</span><span class="pip">${rankText(token)}</span>`;
    el.title = token;
  }
  return el;
}

function backElement(extra = "") {
  const el = document.createElement("div");
  el.className = `card back ${extra}`.trim();
  return el;
}

function prettyAction(action) {
  return action.split(" ").map((w) => {
    if (isCard(w) && w.length === 2) return cardText(w);
    if (/^[2-9TJQKAX]{2}$/.test(w)) return [...w].map(rankText).join(" ");   // Snitch: set 7X
    return w;
  }).join(" ");
}

// --- reading the view ------------------------------------------------------------------

function baseName(gameString) {
  return gameString.split("(")[0];
}

// What the first session seat sees, as the game's observer gives it (docs/protocol.md).
function publicView() {
  return S.view.seats[0].view;
}

function playerOf(seen, seat) {
  return (seen.players || []).find((p) => p.seat === seat) || null;
}

function seatCount(seen, seat) {
  const player = playerOf(seen, seat);
  return player ? player.cards : null;
}

function handOf(seat) {
  const mine = S.view.seats.find((s) => s.seat === seat);
  return mine ? mine.view.hand : null;
}

// The game's seats: as many as the view has `players` entries, else as many as chosen.
function seatTotal(view, chosen) {
  return (view.seats[0].view.players || []).length || chosen;
}

// --- setup -----------------------------------------------------------------------------

async function init() {
  $("#setup-form").addEventListener("submit", (e) => { e.preventDefault(); start(); });
  $("#game").addEventListener("change", fillGame);
  $("#players").addEventListener("input", () => fillSeats());
  $("#level").addEventListener("change", pickLevel);
  $("#seat").addEventListener("change", () => fillSeats());
  for (const radio of $$("input[name=mode]")) radio.addEventListener("change", () => fillSeats());
  $("#new-game").addEventListener("click", showSetup);
  $("#again").addEventListener("click", showSetup);
  $("#hint").addEventListener("click", hint);
  $("#pause").addEventListener("click", togglePause);
  $("#step").addEventListener("click", step);
  $("#typed-form").addEventListener("submit", (e) => { e.preventDefault(); typed(); });
  $("#speed").addEventListener("change", setSpeed);
  window.addEventListener("pagehide", closeSession);
  document.addEventListener("keydown", (e) => {
    if ((e.key === "Enter" || e.key === " ") && e.target.tabIndex === 0 && !/^(BUTTON|INPUT|SELECT|TEXTAREA|A|SUMMARY)$/.test(e.target.tagName)) {
      e.preventDefault();
      e.target.click();
    }
  });
  setSpeed();
  const hello = await send({ type: "hello" });
  if (!hello.ok) {
    $("#setup-message").textContent = `The server did not answer hello: ${hello.error.message}`;
    return;
  }
  S.hello = hello;
  for (const game of hello.games) {
    const option = new Option(game.long_name || game.name, game.name);
    $("#game").append(option);
  }
  fillGame();
  document.body.dataset.ready = "1";
}

function gameEntry() {
  return S.hello.games.find((g) => g.name === $("#game").value);
}

function agentsFor(game) {
  return S.hello.agents.filter((a) => a.games.includes(game));
}

/** The agent specs to choose from for a game of `hello`: its opponent and its strongest
 * agents (each spec once, as `hello` names them: the page knows no game's agents), then
 * every agent `hello` lists for the game. */
function agentChoices(game) {
  const choices = [{ spec: game.opponent, summary: "the game's opponent, koloda's default" }];
  for (const [budget, spec] of Object.entries(game.strongest || {})) {
    choices.push({ spec, summary: `the strongest agent by the reports (${budget} budget)` });
  }
  for (const level of game.levels || []) {
    choices.push({ spec: levelSpec(level), summary: levelText(level) });
  }
  for (const a of agentsFor(game.name)) choices.push({ spec: a.name, summary: a.summary });
  return choices.filter((c, i) => choices.findIndex((d) => d.spec === c.spec) === i);
}

function levelSpec(level) {
  return `level(n=${level.level})`;
}

/** "3: Elo -150 [-180, -120], about 8 ms a move" as the ladder measured it, or "3: not
 * measured yet". */
function levelText(level) {
  if (level.elo === null || level.elo === undefined) return `${level.level}: not measured yet`;
  const end = (v, inf) => (v === null ? inf : v);
  const ms = level.ms_per_move === null ? "" : `, about ${Math.round(level.ms_per_move)} ms a move`;
  return `${level.level}: Elo ${level.elo} [${end(level.low, "-inf")}, ${end(level.high, "+inf")}]${ms}`;
}

/** The level picker: choosing a level seats it everywhere an agent plays. */
function fillLevels(game) {
  const select = $("#level");
  select.innerHTML = "";
  select.append(new Option("choose per seat", ""));
  for (const level of game.levels || []) select.append(new Option(levelText(level), levelSpec(level)));
  $("#level-label").hidden = !(game.levels || []).length;
}

function pickLevel() {
  const spec = $("#level").value;
  if (!spec) return;
  for (const select of $$("#seat-agents select")) select.value = spec;
}

function fillGame() {
  const game = gameEntry();
  $("#game-summary").textContent = game.summary;
  const players = game.parameters.find((p) => p.name === "players");
  $("#players-label").hidden = !players;
  if (players) {
    $("#players").min = players.low ?? 2;
    $("#players").max = players.high ?? 6;
    $("#players").value = players.default;
  }
  const params = $("#params");
  params.innerHTML = "";
  for (const p of game.parameters) {
    if (p.name === "players") continue;
    const label = document.createElement("label");
    label.title = p.help;
    label.append(`${p.name} `);
    let input;
    if (p.choices) {
      input = document.createElement("select");
      for (const c of p.choices) input.append(new Option(c, c));
    } else {
      input = document.createElement("input");
      input.type = p.type === "int" ? "number" : "text";
      if (p.low !== undefined) input.min = p.low;
      if (p.high !== undefined) input.max = p.high;
    }
    input.id = `param-${p.name}`;
    input.dataset.param = p.name;
    input.value = p.default;
    input.addEventListener("input", showGameString);
    label.append(input, Object.assign(document.createElement("small"), { textContent: p.help }));
    params.append(label);
  }
  const hintSelect = $("#hint-agent");
  hintSelect.innerHTML = "";
  for (const c of agentChoices(game)) hintSelect.append(new Option(c.spec, c.spec));
  hintSelect.value = game.opponent;
  $("#seat-agents").innerHTML = "";      // a new game's seats start from its opponent
  fillLevels(game);
  fillSeats();
}

function playerCount() {
  const game = gameEntry();
  const players = game.parameters.find((p) => p.name === "players");
  return players ? Math.max(+$("#players").min, Math.min(+$("#players").max, +$("#players").value || players.default)) : 2;
}

function mode() {
  return $("input[name=mode]:checked").value;
}

function fillSeats() {
  const game = gameEntry();
  const n = playerCount();
  const watching = mode() === "watch";
  const seat = $("#seat");
  const chosen = Math.min(+seat.value || 0, n - 1);
  seat.innerHTML = "";
  for (let i = 0; i < n; i++) seat.append(new Option(`p${i}`, i));
  seat.value = chosen;
  $("#seat-label").hidden = watching;
  $("#hint-label").hidden = watching;
  const box = $("#seat-agents");
  const previous = Object.fromEntries($$("select", box).map((s) => [s.dataset.seat, s.value]));
  box.innerHTML = "";
  for (let i = 0; i < n; i++) {
    if (!watching && i === chosen) continue;
    const label = document.createElement("label");
    label.append(`p${i} is played by `);
    const select = document.createElement("select");
    select.id = `agent-${i}`;
    select.dataset.seat = i;
    const choices = agentChoices(game);
    for (const c of choices) {
      const option = new Option(c.spec, c.spec);
      option.title = c.summary;
      select.append(option);
    }
    const level = $("#level").value;
    select.value = level || (choices.some((c) => c.spec === previous[i]) ? previous[i] : game.opponent);
    select.addEventListener("change", () => {      // a seat chosen apart: no longer one level
      if (select.value !== $("#level").value) $("#level").value = "";
    });
    label.append(select);
    box.append(label);
  }
  showGameString();
}

function gameString() {
  const game = gameEntry();
  const items = [];
  for (const p of game.parameters) {
    let value = p.name === "players" ? String(playerCount()) : $(`#param-${p.name}`).value.trim();
    if (value === "" || value === String(p.default)) continue;
    if (p.type === "str" && !/^[\w.-]+$/.test(value)) value = `"${value.replace(/"/g, "")}"`;
    items.push(`${p.name}=${value}`);
  }
  return items.length ? `${game.name}(${items.join(",")})` : game.name;
}

function showGameString() {
  $("#game-string").textContent = gameString();
}

function showSetup() {
  S.gen++;
  hideMessage();
  closeSession();
  document.body.dataset.phase = "setup";
  document.body.dataset.turn = "";
  $("#setup").hidden = false;
  for (const id of ["#play", "#side", "#end", "#new-game"]) $(id).hidden = true;
}

async function start() {
  const watching = mode() === "watch";
  const n = playerCount();
  const mySeat = watching ? null : +$("#seat").value;
  const agents = {};
  for (const select of $$("#seat-agents select")) agents[+select.dataset.seat] = select.value;
  const request = { type: "new", game: gameString(), seats: watching ? [...Array(n).keys()] : [mySeat] };
  const seed = $("#seed").value.trim();
  if (seed !== "") request.seed = +seed;
  $("#start").disabled = true;
  const reply = await send(request);
  $("#start").disabled = false;
  if (!reply.ok) {
    $("#setup-message").textContent = `${reply.error.code}: ${reply.error.message}`;
    return;
  }
  $("#setup-message").textContent = "";
  closeSession();
  const gen = ++S.gen;
  Object.assign(S, {
    session: reply.session, gameString: reply.game, base: baseName(reply.game), seed: reply.seed,
    seats: reply.seats, players: seatTotal(reply.view, n), mySeat, watching, agents, specs: { ...agents },
    thinkMs: Math.max(1, +$("#think-ms").value || 300), hintAgent: $("#hint-agent").value,
    view: reply.view, events: [...reply.events], paused: false, selected: null, last: {},
  });
  $("#setup").hidden = true;
  $("#play").hidden = false;
  $("#side").hidden = false;
  $("#end").hidden = true;
  $("#analysis").hidden = true;
  delete $("#analysis").dataset.done;
  $("#new-game").hidden = false;
  $("#watch-controls").hidden = !watching;
  $("#hint-panel").hidden = watching;
  $("#typed").hidden = watching;
  $("#pause").textContent = "Pause";
  $("#hint-result").innerHTML = "";
  $("#log").innerHTML = "";
  $("#wire").textContent = $("#wire").textContent.split("\n").slice(-4).join("\n");
  document.body.dataset.phase = "game";
  document.body.dataset.game = S.base;
  logEvents(reply.events);
  render();
  advance(gen);
}

// --- the game loop -----------------------------------------------------------------------

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function pace() {
  return +$("#speed").value;
}

function setSpeed() {
  const ms = pace();
  document.documentElement.style.setProperty("--move-ms", `${Math.round(Math.min(ms, 900) * 0.8)}ms`);
}

function myTurn() {
  return !S.watching && S.view.status === "play" && S.view.to_move === S.mySeat;
}

// The one loop that plays the agents' seats, move after move, until it is the person's
// turn or the end; a second call while it runs does nothing (it will see the new view).
async function advance(gen) {
  if (S.advancing) return;
  S.advancing = true;
  try {
    while (gen === S.gen) {
      const view = S.view;
      if (view.status === "over") return finish();
      if (view.status !== "play" || view.to_move === null) {
        message(`The game waits for something this page cannot give (${view.turn}).`);
        return;
      }
      if (myTurn()) {
        render();
        return;
      }
      if (S.paused) return;
      if (!(await agentMove(gen))) return;
    }
  } finally {
    S.advancing = false;
  }
}

// One move of a seat koloda plays: `move` (a seat outside the session) or, when watching
// (every seat is the session's), `hint`; both with `apply: true`.
async function agentMove(gen) {
  const seat = S.view.to_move;
  S.busy = true;
  render();
  const type = S.seats.includes(seat) ? "hint" : "move";
  const reply = await send({ type, session: S.session, agent: S.agents[seat], ms: S.thinkMs, apply: true });
  S.busy = false;
  if (gen !== S.gen) return false;
  if (!reply.ok) {
    problem(reply);
    renderRetry(gen);
    return false;
  }
  S.specs[seat] = reply.agent;
  await played(reply, gen);
  return gen === S.gen;
}

// A reply with `events` and `view`: show the new position, animate the move, wait.
async function played(reply, gen) {
  S.events.push(...reply.events);
  S.view = reply.view;
  S.selected = null;
  $("#hint-result").innerHTML = "";
  for (const event of reply.events) {
    if (event.player !== null) S.last[event.player] = event.action;
  }
  logEvents(reply.events);
  render();
  animate(reply.events);
  const wait = pace();
  if (wait > 0 && S.view.status !== "over") await sleep(wait);
  else await sleep(0);
  return gen === S.gen;
}

async function playMine(action) {
  if (!myTurn() || S.busy) return;
  S.busy = true;
  const gen = S.gen;
  const reply = await send({ type: "observe", session: S.session, actions: [`p${S.mySeat} ${action}`] });
  S.busy = false;
  if (gen !== S.gen) return;
  if (!reply.ok) {
    problem(reply);
    render();
    return;
  }
  hideMessage();
  await played(reply, gen);
  advance(gen);
}

function renderRetry(gen) {
  const box = $("#actions");
  const retry = document.createElement("button");
  retry.textContent = "Try the move again";
  retry.addEventListener("click", () => { retry.remove(); advance(gen); });
  box.append(retry);
}

function togglePause() {
  S.paused = !S.paused;
  $("#pause").textContent = S.paused ? "Resume" : "Pause";
  if (!S.paused && !S.busy) advance(S.gen);
}

async function step() {
  if (!S.paused) togglePause();
  if (S.busy || S.advancing || S.view.status !== "play") return;
  S.advancing = true;
  try {
    await agentMove(S.gen);
  } finally {
    S.advancing = false;
  }
  if (S.view.status === "over") finish();
}

async function hint() {
  if (!myTurn() || S.busy) {
    message("A hint is for your own move: wait for your turn.");
    return;
  }
  S.busy = true;
  const box = $("#hint-result");
  box.textContent = "thinking…";
  const reply = await send({ type: "hint", session: S.session, agent: S.hintAgent, ms: S.thinkMs });
  S.busy = false;
  if (!reply.ok) {
    box.textContent = "";
    problem(reply);
    return;
  }
  box.innerHTML = "";
  const head = document.createElement("p");
  head.className = "suggestion";
  head.innerHTML = `<b>${reply.agent}</b> suggests <b class="suggested">${prettyAction(reply.action)}</b>`;
  const play = document.createElement("button");
  play.textContent = "Play it";
  play.addEventListener("click", () => playMine(reply.action));
  head.append(" ", play);
  box.append(head);
  const kind = reply.policy_kind === "visits" ? "share of the search's visits" : "the move chosen";
  const note = document.createElement("p");
  note.className = "summary";
  note.textContent = `Policy (${kind}${reply.simulations !== undefined ? `, ${reply.simulations} simulations` : ""}, ${Math.round(reply.thinking_ms)} ms):`;
  box.append(note);
  const list = document.createElement("ol");
  list.className = "policy";
  const top = Object.entries(reply.policy).sort((a, b) => b[1] - a[1]).slice(0, 6);
  for (const [action, share] of top) {
    const li = document.createElement("li");
    li.innerHTML = `<span class="act">${prettyAction(action)}</span>` +
      `<span class="bar"><span style="width:${(share * 100).toFixed(1)}%"></span></span>` +
      `<span class="pct">${(share * 100).toFixed(1)}%</span>`;
    list.append(li);
  }
  box.append(list);
  for (const token of reply.action.split(" ")) {
    for (const el of $$(`#me [data-card="${token}"], #table [data-cell="${token}"]`)) el.classList.add("hinted");
  }
}

async function typed() {
  const input = $("#typed-action");
  const action = input.value.trim();
  if (!action) return;
  if (!myTurn()) {
    message("It is not your turn.");
    return;
  }
  input.value = "";
  await playMine(action);
}

function finish() {
  hideMessage();
  render();
  document.body.dataset.phase = "over";
  const view = S.view;
  const winners = view.winners || [];
  let result;
  if (!winners.length) result = "A draw";
  else if (!S.watching && winners.includes(S.mySeat)) result = winners.length > 1 ? "You are among the winners" : "You won";
  else if (!S.watching) result = `You lost: ${winners.map(seatName).join(", ")} won`;
  else result = `${winners.map(seatName).join(", ")} won`;
  $("#result").textContent = `${result} (${view.turn.replace(/^over: /, "")})`;
  const table = $("#returns");
  table.innerHTML = "<tr><th>seat</th><th>player</th><th>return</th></tr>";
  view.returns.forEach((r, seat) => {
    const row = document.createElement("tr");
    if (winners.includes(seat)) row.className = "winner";
    row.innerHTML = `<td>p${seat}</td><td>${playerName(seat)}</td><td>${r}</td>`;
    table.append(row);
  });
  const record = view.record ? { ...view.record } : null;
  if (record) {
    const players = [];
    for (let seat = 0; seat < view.returns.length; seat++) players.push(playerName(seat));
    const { actions, returns, ...head } = record;
    const ordered = { ...head, players, actions, ...(returns ? { returns } : {}) };
    const text = JSON.stringify(ordered, null, 1);
    $("#record").value = text;
    const file = `koloda-${S.base}-${record.seed ?? S.session}.json`;
    const link = $("#download");
    if (link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([text + "\n"], { type: "application/json" }));
    link.download = file;
    $("#replay-command").textContent = `koloda show --record ${file}`;
  }
  $("#end").hidden = false;
  $("#end").scrollIntoView({ block: "nearest" });
  if (S.base === "parket") analyse(S.session);
}

// A finished Parket game analysed by the exact solver (the protocol's `analyse`): the
// moves that threw a win or a draw away, and the moves that kept it, as koloda play says.
async function analyse(session) {
  const box = $("#analysis");
  const list = $("#analysis-moves");
  box.hidden = false;
  list.replaceChildren();
  $("#analysis-reach").textContent = "analysing the game…";
  const reply = await send({ type: "analyse", session });
  if (session !== S.session) return;               // a new game began meanwhile
  if (!reply.ok) {
    $("#analysis-reach").textContent = `no analysis: ${reply.error.message}`;
    return;
  }
  const analysis = reply.analysis;
  const perPosition = `${analysis.seconds_per_position} s`;
  $("#analysis-reach").textContent = analysis.first_solved === null
    ? `no position of this game was solved within ${perPosition} a position`
    : `solved from move ${analysis.first_solved} on, the first position within ${perPosition}`;
  const thrown = analysis.moves.filter((move) => move.threw_away);
  for (const move of thrown) {
    const item = document.createElement("li");
    item.textContent = `${seatName(move.player)}, move ${move.number} (${move.move}), turned a ` +
      `${move.before} into a ${move.after}; ${move.kept_by.join(", ")} kept it`;
    list.append(item);
  }
  if (!thrown.length) {
    const item = document.createElement("li");
    item.textContent = "no move within reach threw a win or a draw away";
    list.append(item);
  }
  box.dataset.done = "true";
}

// --- messages and the log --------------------------------------------------------------

function message(text) {
  const box = $("#message");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(S.messageTimer);
  S.messageTimer = setTimeout(() => { box.hidden = true; }, MESSAGE_MS);
}

function hideMessage() {
  clearTimeout(S.messageTimer);
  $("#message").hidden = true;
}

function problem(reply) {
  document.body.dataset.errors = Number(document.body.dataset.errors || 0) + 1;
  message(`${reply.error.code}: ${reply.error.message}`);
}

function seatName(seat) {
  if (!S.watching && seat === S.mySeat) return "you";
  return `p${seat}`;
}

function playerName(seat) {
  if (!S.watching && seat === S.mySeat) return "you";
  return S.specs[seat] || S.agents[seat] || `p${seat}`;
}

function logEvents(events) {
  const log = $("#log");
  for (const event of events) {
    let text;
    if (event.player !== null) text = `${seatName(event.player)}: ${prettyAction(event.action)}`;
    else if (/^(deal|hand) /.test(event.action) && !event.then) continue;
    else text = `· ${prettyAction(event.action)}`;
    const li = document.createElement("li");
    li.textContent = text;
    if (event.player === null) li.className = "chance";
    if (event.then) li.append(Object.assign(document.createElement("small"), { textContent: ` (${event.then.join("; ")})` }));
    log.append(li);
  }
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

// --- rendering -----------------------------------------------------------------------------

function legal() {
  return myTurn() && !S.busy ? S.view.legal || [] : [];
}

// The person's legal actions by what is clicked: a card of the hand, or a button.
function clickTargets() {
  const byCard = {};
  const buttons = [];
  const verbs = particular().handVerbs || [];
  const hand = handOf(S.mySeat) || [];
  for (const action of legal()) {
    const words = action.split(" ");
    const card = words[words.length - 1];
    if (words.length === 2 && verbs.includes(words[0]) && hand.includes(card)) (byCard[card] ||= []).push(action);
    else buttons.push(action);
  }
  return { byCard, buttons };
}

function render() {
  if (!S.view) return;
  const view = S.view;
  const mine = myTurn() && !S.busy;
  document.body.dataset.turn = view.status === "over" ? "over" : mine ? "me" : "other";
  document.body.dataset.events = S.events.length;
  let turn = view.turn;
  if (mine) turn = `Your turn (p${S.mySeat}): ${view.turn.replace(/^p\d+ (\(\w+\) )?/, "")}`;
  else if (S.busy) turn = `${view.turn} · ${playerName(view.to_move)} is thinking…`;
  $("#turn").textContent = turn;
  // a seed the server drew is not shown: it decides every hand (the record has it)
  $("#game-info").textContent = S.seed === undefined ? S.gameString : `${S.gameString} · seed ${S.seed}`;
  (particular().render || renderCardGame)();
  renderActions();
  for (const el of $$("#me .card.playable, #table .playable, #table .cell.target, #table .cell .card.playable")) {
    el.tabIndex = 0;           // reachable with the keyboard too: Tab, then Enter
  }
}

function seatPanel(seat, { hand = null, count = null, info = [] } = {}) {
  const panel = document.createElement("div");
  panel.className = "seat";
  panel.id = `seat-${seat}`;
  panel.dataset.seat = seat;
  if (S.view.to_move === seat && S.view.status === "play") panel.classList.add("to-move");
  if ((S.view.winners || []).includes(seat)) panel.classList.add("winner");
  const name = document.createElement("div");
  name.className = "name";
  name.innerHTML = `<b>${!S.watching && seat === S.mySeat ? "You" : `p${seat}`}</b>` +
    (!S.watching && seat === S.mySeat ? ` <span class="tag">p${seat}</span>` : ` <span class="tag">${playerName(seat)}</span>`);
  panel.append(name);
  const cards = document.createElement("div");
  cards.className = "hand";
  if (hand) for (const c of hand) cards.append(cardElement(c, "small"));
  else if (count !== null) {
    for (let i = 0; i < Math.min(count, 12); i++) cards.append(backElement("small"));
  }
  if (count !== null || hand) {
    const n = document.createElement("span");
    n.className = "count";
    n.textContent = `${hand ? hand.length : count} card${(hand ? hand.length : count) === 1 ? "" : "s"}`;
    cards.append(n);
  }
  panel.append(cards);
  for (const line of info) {
    const p = document.createElement("div");
    p.className = "info";
    if (line instanceof Node) p.append(line);
    else p.textContent = line;
    panel.append(p);
  }
  const last = document.createElement("div");
  last.className = "last";
  if (S.last[seat]) last.textContent = prettyAction(S.last[seat]);
  panel.append(last);
  return panel;
}

function renderCardGame() {
  const seen = publicView();
  const seatsBox = $("#seats");
  seatsBox.innerHTML = "";
  for (let seat = 0; seat < S.players; seat++) {
    if (!S.watching && seat === S.mySeat) continue;
    seatsBox.append(seatPanel(seat, { hand: S.watching ? handOf(seat) : null, count: seatCount(seen, seat), info: seatInfo(seat, seen) }));
  }
  const table = $("#table");
  table.innerHTML = "";
  (particular().table || genericTable)(table, seen);
  const me = $("#me");
  me.innerHTML = "";
  if (!S.watching) {
    const panel = seatPanel(S.mySeat, { info: seatInfo(S.mySeat, seen) });
    panel.classList.add("mine");
    const hand = panel.querySelector(".hand");
    hand.innerHTML = "";
    const { byCard } = clickTargets();
    for (const card of handOf(S.mySeat) || []) {
      const el = cardElement(card);
      if (byCard[card]) el.classList.add("playable");
      el.addEventListener("click", () => clickCard(card));
      hand.append(el);
    }
    me.append(panel);
  }
}

function seatInfo(seat, seen) {
  const player = playerOf(seen, seat);
  if (!player) return [];
  return (particular().seatInfo || genericSeatInfo)(seat, player, seen);
}

function durakSeatInfo(seat, player, seen) {
  const info = [];
  if (seen.attacker === seat) info.push("attacker");
  if (seen.defender === seat) info.push("defender");
  if (seat !== seen.seat && player.known.length && !S.watching) info.push(`known: ${player.known.map(cardText).join(" ")}`);
  return info;
}

function fishSeatInfo(seat, player) {
  return [miniRow(`${player.matches} matches`, player.laid)];
}

function snitchSeatInfo(seat, player) {
  const info = [`${player.total} points (this deal ${player.points})`];
  const row = document.createElement("span");
  row.className = "sets";
  for (const set of player.sets) {
    const group = document.createElement("span");
    group.className = "set";
    group.dataset.set = set.join("");
    for (const c of set) group.append(cardElement(c, "tiny"));
    row.append(group);
  }
  if (player.sets.length) info.push(row);
  return info;
}

function miniRow(label, cards) {
  const row = document.createElement("span");
  row.className = "sets";
  row.append(`${label} `);
  for (const c of cards) row.append(cardElement(c, "tiny"));
  return row;
}

function pile(label, { count = null, top = null, back = false, action = null } = {}) {
  const box = document.createElement("div");
  box.className = "pile";
  if (top) box.append(cardElement(top));
  else if (back && count) box.append(backElement());
  else box.append(Object.assign(document.createElement("div"), { className: "card empty" }));
  const caption = document.createElement("div");
  caption.className = "caption";
  caption.textContent = count === null ? label : `${label} ${count}`;
  box.append(caption);
  if (action) {
    box.classList.add("clickable");
    if (legal().includes(action)) box.classList.add("playable");
    box.addEventListener("click", () => {
      if (legal().includes(action)) playMine(action);
      else message(myTurn() ? `${action}: not a legal move now` : "It is not your turn.");
    });
  }
  return box;
}

function durakTable(table, seen) {
  const stock = seen.stock || 0;
  const deck = document.createElement("div");
  deck.className = "deck";
  const trump = seen.trump;
  if (trump) deck.append(cardElement(trump, "trump"));
  if (stock > 0) deck.append(backElement("stock"));
  const caption = document.createElement("div");
  caption.className = "caption";
  caption.textContent = `stock ${stock} · trump ${trump ? SUITS[trump[1]] || trump : "?"}`;
  deck.append(caption);
  table.append(deck);
  const battle = document.createElement("div");
  battle.className = "battle";
  for (const pair of seen.table) {
    const box = document.createElement("div");
    box.className = "pair";
    box.append(cardElement(pair.attack));
    if (pair.defence) box.append(cardElement(pair.defence, "cover"));
    battle.append(box);
  }
  if (!seen.table.length) battle.append(Object.assign(document.createElement("div"), { className: "placeholder", textContent: "the table is empty" }));
  table.append(battle);
  table.append(pile("discard", { count: seen.discard.length, back: true }));
}

function fishTable(table, seen) {
  table.append(pile("stock", { count: seen.stock, back: true, action: "draw" }));
  table.append(pile("discard", { count: seen.discard.length, top: seen.top_discard, action: "take discard" }));
  if (seen.offered) {
    const offered = document.createElement("div");
    offered.className = "offered";
    offered.append(Object.assign(document.createElement("div"), { className: "caption", textContent: "the dice offer" }));
    const row = document.createElement("div");
    row.className = "row";
    for (const c of seen.offered) {
      const el = cardElement(c);
      const action = `choose ${c}`;
      if (legal().includes(action)) el.classList.add("playable");
      el.addEventListener("click", () => (legal().includes(action) ? playMine(action) : message(`${action}: not a legal move now`)));
      row.append(el);
    }
    offered.append(row);
    table.append(offered);
  }
}

function snitchTable(table, seen) {
  table.append(pile("reserve", { count: seen.reserve, back: true }));
  table.append(pile("discard", { count: seen.discard.length, top: seen.top_discard }));
  table.append(Object.assign(document.createElement("div"), { className: "placeholder", textContent: `deal ${seen.deal} · dealer p${seen.dealer}` }));
}

// --- a game drawn from its view's fields ---------------------------------------------

// Fields drawn elsewhere (the hand, the seats, the board) or said by the turn line.
const DRAWN_ELSEWHERE = new Set(["game", "seat", "hand", "players", "board", "to_move", "phase"]);

// The view's public fields, in its order, as [name, value].
function publicFields(seen) {
  return Object.entries(seen).filter(([name]) => !DRAWN_ELSEWHERE.has(name));
}

function isCardList(value) {
  return Array.isArray(value) && value.every((item) => typeof item === "string" && isCard(item));
}

// A value as words: `-` for nothing, a list's items in a row (a pair in it as `Ks/9d`), a
// mapping as `key value, ...`; cards in it are drawn with their suits by prettyAction.
function fieldText(value) {
  if (value === null || value === undefined) return "-";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.length ? value.map(itemText).join(" ") : "-";
  if (typeof value === "object") {
    const entries = Object.entries(value);
    return entries.length ? entries.map(([key, item]) => `${key} ${fieldText(item)}`).join(", ") : "-";
  }
  return String(value);
}

function itemText(item) {
  const values = Array.isArray(item) ? item : item && typeof item === "object" ? Object.values(item) : null;
  return values && values.length ? values.map(fieldText).join("/") : fieldText(item);
}

// A game this page has no drawing for: a board grid if the view has one, each list of
// cards as a row of cards, and a panel of the other public fields.
function genericTable(table, seen) {
  if (Array.isArray(seen.board)) table.append(boardGrid(seen.board));
  const fields = publicFields(seen);
  for (const [name, value] of fields) {
    if (isCardList(value)) table.append(cardRow(name, value));
  }
  const panel = document.createElement("dl");
  panel.className = "fields";
  for (const [name, value] of fields) {
    if (isCardList(value)) continue;
    const row = document.createElement("div");
    row.dataset.field = name;
    row.append(Object.assign(document.createElement("dt"), { textContent: name }),
      Object.assign(document.createElement("dd"), { textContent: prettyAction(fieldText(value)) }));
    panel.append(row);
  }
  if (panel.children.length) table.append(panel);
}

function cardRow(name, cards) {
  const box = document.createElement("div");
  box.className = "card-row";
  box.dataset.field = name;
  const row = document.createElement("div");
  row.className = "row";
  for (const c of cards) row.append(cardElement(c, "small"));
  if (!cards.length) row.append(Object.assign(document.createElement("div"), { className: "card small empty" }));
  box.append(row, Object.assign(document.createElement("div"), { className: "caption", textContent: `${name} ${cards.length}` }));
  return box;
}

// A board (rows of cells, each a card, null, or other text) with coordinates: columns a, b,
// ... and rows 1, 2, ... top down, each cell named so (`data-cell`), as Parket's notation
// names cells.
function boardGrid(rows) {
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const grid = document.createElement("div");
  grid.className = "board generic";
  grid.style.gridTemplateColumns = `20px repeat(${columns}, 52px)`;
  grid.append(Object.assign(document.createElement("div"), { className: "label" }));
  for (let c = 0; c < columns; c++) grid.append(Object.assign(document.createElement("div"), { className: "label", textContent: columnName(c) }));
  rows.forEach((row, r) => {
    grid.append(Object.assign(document.createElement("div"), { className: "label", textContent: r + 1 }));
    row.forEach((value, c) => {
      const name = `${columnName(c)}${r + 1}`;
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.dataset.cell = name;
      if (value === null) cell.append(Object.assign(document.createElement("span"), { className: "coord", textContent: name }));
      else if (isCard(value)) cell.append(cardElement(value, "small"));
      else cell.append(Object.assign(document.createElement("span"), { textContent: fieldText(value) }));
      grid.append(cell);
    });
  });
  return grid;
}

function columnName(column) {
  return column < 26 ? String.fromCharCode(97 + column) : String(column + 1);
}

// Under a seat of a game this page does not know: its entry's fields (its count is drawn
// as card backs), a list of cards as tiny cards.
function genericSeatInfo(seat, player) {
  return Object.entries(player).filter(([name]) => name !== "seat" && name !== "cards").map(([name, value]) =>
    (isCardList(value) && value.length ? miniRow(name, value) : `${name} ${prettyAction(fieldText(value))}`));
}

function renderActions() {
  const box = $("#actions");
  box.innerHTML = "";
  if (S.view.status === "over") return;
  const note = particular().actionsNote;
  if (note) return note(box);
  for (const action of clickTargets().buttons) box.append(actionButton(action));
}

/** A button that plays `action` (an action string) for the person. */
function actionButton(action) {
  const button = document.createElement("button");
  button.className = "action";
  button.dataset.action = action;
  button.textContent = prettyAction(action);
  button.addEventListener("click", () => playMine(action));
  return button;
}

function clickCard(card) {
  if (!myTurn()) {
    message(S.busy ? "Wait: the move is being played." : "It is not your turn.");
    return;
  }
  const actions = clickTargets().byCard[card];
  if (!actions) {
    message(`${cardText(card)} cannot be played now. Legal: ${S.view.legal.map(prettyAction).join(", ")}`);
    return;
  }
  if (actions.length === 1) return playMine(actions[0]);
  const box = $("#actions");
  for (const action of actions) box.append(actionButton(action));
  message(`${cardText(card)}: choose how to play it below.`);
}

// --- Parket --------------------------------------------------------------------------

const COLUMNS = "abcdefg";
const CROSS = { d2: "inner", c3: "inner", e3: "inner", d4: "inner", d1: "outer", b3: "outer", f3: "outer", d5: "outer", d3: "centre" };

function parketNote(box) {
  if (myTurn() && !S.busy) {
    const note = document.createElement("span");
    note.className = "summary";
    note.textContent = S.selected
      ? `${cardText(S.selected.card)} chosen: click a highlighted cell (or the card again to drop it)`
      : "Click one of your cards, then a highlighted cell";
    box.append(note);
  }
}

function colourOf(seat) {
  return publicView().colours[seat];
}

// The board's rows as cells by name (`d3`): a card string, or null for an empty cell.
function parketBoard(rows) {
  const board = {};
  rows.forEach((row, r) => row.forEach((card, c) => { board[`${COLUMNS[c]}${r + 1}`] = card; }));
  return board;
}

// The person's Parket moves: card (or board card for a relocation) -> cell -> action.
function parketMoves() {
  const moves = {};
  for (const action of legal()) {
    const words = action.split(" ");
    const [card, cell, from] = words[0] === "move" ? [words[1], words[2], "board"] : [words[0], words[1], "hand"];
    ((moves[`${from}:${card}`] ||= {}))[cell] = action;
  }
  return moves;
}

function renderParket() {
  const seen = publicView();
  const hands = seen.hands;
  const board = parketBoard(seen.board);
  const moves = parketMoves();
  const seatsBox = $("#seats");
  seatsBox.innerHTML = "";
  for (let seat = 0; seat < 2; seat++) {
    if (!S.watching && seat === S.mySeat) continue;
    seatsBox.append(seatPanel(seat, { hand: hands[colourOf(seat)], info: [`${colourOf(seat)}`] }));
  }
  const table = $("#table");
  table.innerHTML = "";
  const grid = document.createElement("div");
  grid.className = "board";
  grid.append(Object.assign(document.createElement("div"), { className: "label" }));
  for (const col of COLUMNS) grid.append(Object.assign(document.createElement("div"), { className: "label", textContent: col }));
  const targets = S.selected ? moves[`${S.selected.from}:${S.selected.card}`] || {} : {};
  for (let r = 1; r <= 5; r++) {
    grid.append(Object.assign(document.createElement("div"), { className: "label", textContent: r }));
    for (const col of COLUMNS) {
      const name = `${col}${r}`;
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.dataset.cell = name;
      if (CROSS[name]) cell.classList.add(CROSS[name]);
      const card = board[name];
      if (card) {
        const el = cardElement(card, "small");
        if (moves[`board:${card}`]) el.classList.add("playable");
        if (S.selected && S.selected.from === "board" && S.selected.card === card) el.classList.add("selected");
        cell.append(el);
      } else {
        cell.append(Object.assign(document.createElement("span"), { className: "coord", textContent: name }));
      }
      if (targets[name]) cell.classList.add("target");
      cell.addEventListener("click", () => clickCell(name, card));
      grid.append(cell);
    }
  }
  table.append(grid);
  const me = $("#me");
  me.innerHTML = "";
  if (!S.watching) {
    const colour = colourOf(S.mySeat);
    const panel = seatPanel(S.mySeat, { info: [colour] });
    panel.classList.add("mine");
    const hand = panel.querySelector(".hand");
    hand.innerHTML = "";
    for (const card of hands[colour]) {
      const el = cardElement(card, "medium");
      if (moves[`hand:${card}`]) el.classList.add("playable");
      if (S.selected && S.selected.from === "hand" && S.selected.card === card) el.classList.add("selected");
      el.addEventListener("click", () => selectParket(card, "hand"));
      hand.append(el);
    }
    me.append(panel);
  }
}

function selectParket(card, from) {
  if (!myTurn()) {
    message(S.busy ? "Wait: the move is being played." : "It is not your turn.");
    return;
  }
  const moves = parketMoves();
  if (S.selected && S.selected.card === card && S.selected.from === from) {
    S.selected = null;
  } else if (!moves[`${from}:${card}`]) {
    const relocate = Object.keys(moves).some((k) => k.startsWith("board:"));
    message(relocate && from === "hand"
      ? `No card can be placed: relocate one of your cards on the board instead.`
      : `${cardText(card)} has no legal cell now.`);
    return;
  } else {
    S.selected = { card, from };
  }
  render();
}

function clickCell(name, card) {
  if (!myTurn()) {
    message(S.busy ? "Wait: the move is being played." : "It is not your turn.");
    return;
  }
  if (card && !(S.selected && !(S.selected.from === "board" && S.selected.card === card))) {
    // a card on the board: choose it for a relocation
    return selectParket(card, "board");
  }
  if (!S.selected) {
    message("Choose one of your cards first, then the cell.");
    return;
  }
  const action = (parketMoves()[`${S.selected.from}:${S.selected.card}`] || {})[name];
  if (!action) {
    message(`${cardText(S.selected.card)} cannot go on ${name}.`);
    return;
  }
  playMine(action);
}

// --- animation -----------------------------------------------------------------------

// The card just played slides from its player's panel to where it now lies.
function animate(events) {
  if (pace() === 0) return;
  for (const event of events) {
    if (event.player === null) continue;
    const panel = $(`#seat-${event.player}`);
    if (panel) {
      panel.classList.remove("just-moved");
      void panel.offsetWidth;
      panel.classList.add("just-moved");
    }
    // the action's last word: the card played (the last of its copies on the table), or
    // the cell it went to (a board's `9h d2`)
    const words = event.action.split(" ");
    const last = words[words.length - 1];
    const found = $$(`#table [data-card="${last}"]`);
    const target = found[found.length - 1] || $(`#table [data-cell="${last}"] .card`);
    if (!target || !panel) continue;
    const from = panel.getBoundingClientRect();
    const to = target.getBoundingClientRect();
    target.style.setProperty("--dx", `${from.left + from.width / 2 - (to.left + to.width / 2)}px`);
    target.style.setProperty("--dy", `${from.top + from.height / 2 - (to.top + to.height / 2)}px`);
    target.classList.add("fresh");
  }
}

init();
