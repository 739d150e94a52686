// The web client of `backgammon serve`: one page, no dependencies.
// Its seat and secret token live in the URL fragment (#game=ID&seat=0&token=T),
// which browsers never send to the server; a link without a token spectates.
"use strict";

const bg = {state: null, turn: null, steps: [], selected: null, game: null, seat: 0,
            token: null, busy: false, socket: null};
window.bg = bg;  // for the browser test and the curious

const $ = (id) => document.getElementById(id);

function fragment() {
  const out = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const [k, v] = part.split("=");
    if (k) out[decodeURIComponent(k)] = decodeURIComponent(v || "");
  }
  return out;
}

async function api(method, path, body) {
  const headers = {"Content-Type": "application/json"};
  if (bg.token) headers["Authorization"] = "Bearer " + bg.token;
  const r = await fetch(path, {method, headers, body: body ? JSON.stringify(body) : undefined});
  const data = await r.json();
  if (!r.ok) throw new Error(data.message || r.statusText);
  return data;
}

async function create(vsBot) {
  const length = parseInt($("length").value || "0", 10);
  const body = {match_length: length};
  if (vsBot) body.bot = {seat: 1, ply: parseInt($("ply").value, 10)};
  try {
    const g = await api("POST", "/games", body);
    if (!vsBot) {
      const other = `${location.origin}/#game=${g.id}&seat=1&token=${g.tokens["1"]}`;
      $("other-link").value = other;
      $("links").classList.remove("hidden");
    }
    location.hash = `game=${g.id}&seat=0&token=${g.tokens["0"]}`;  // opens it
  } catch (e) { $("error").textContent = e.message; }
}

function open_game() {
  const f = fragment();
  if (!f.game) return;
  bg.game = f.game; bg.seat = parseInt(f.seat || "0", 10); bg.token = f.token || null;
  $("lobby").classList.add("hidden");
  $("table").classList.remove("hidden");
  listen();
  refresh();
}

function listen() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/games/${bg.game}/events`);
  ws.onmessage = (m) => {
    const event = JSON.parse(m.data);
    if (!bg.state || event.state.seq !== bg.state.seq) { bg.steps = []; bg.selected = null; refresh(); }
  };
  ws.onclose = () => setTimeout(listen, 2000);  // the server restarted: come back
  bg.socket = ws;
}

async function refresh() {
  try {
    const steps = bg.steps.map(([a, b]) => `${a}/${b}`).join(" ");
    const [state, turn] = await Promise.all([
      api("GET", `/games/${bg.game}`),
      api("GET", `/games/${bg.game}/turn?seat=${bg.seat}&steps=${encodeURIComponent(steps)}`)]);
    bg.state = state; bg.turn = turn;
    draw();
    if (mine() && state.phase === "move" && turn.complete && !bg.busy) {
      await send({action: "play", moves: bg.steps});  // the last step completed the play
    }
  } catch (e) { $("error").textContent = e.message; }
}

function mine() {
  return bg.token && bg.state && bg.state.player_to_act === bg.seat ||
         (bg.token && bg.state && bg.state.phase === "opening");
}

const LABELS = {roll: "Roll", double: "Double", take: "Take", drop: "Pass", beaver: "Beaver",
                resign: "Resign", accept: "Accept", reject: "Reject"};

function result(s, me) {
  // the end, said to a player ("You won 4 points (gammon).") or to a spectator
  const r = s.result, what = s.match_length ? "the match" : null;
  const points = r ? ` ${r.points} point${r.points === 1 ? "" : "s"}` +
                     (r.kind && r.kind !== "single" ? ` (${r.kind})` : "") : "";
  if (!bg.token) return `Player ${s.winner} won` + (what ? ` ${what}.` : `${points}.`);
  if (s.winner === me) return "You won" + (what ? ` ${what}.` : `${points}.`);
  return "You lost" + (what ? ` ${what}.` : `${points}.`);
}

function draw() {
  const s = bg.state, me = bg.seat, opp = 1 - me;
  $("board").innerHTML = bg.turn.svg;
  const score = s.match_length ? `match to ${s.match_length}: you ${s.score[me]}, ` +
                `opponent ${s.score[opp]}` : `money game`;
  const cube = `cube ${s.cube}` + (s.cube_owner === null ? " (centred)" :
               s.cube_owner === me ? " (yours)" : " (opponent's)");
  $("info").textContent = `${score}; ${cube}; game ${s.game_number}; seq ${s.seq}; ` +
                          `position ${s.position_id}:${s.match_id}`;
  let status;
  if (s.over) status = result(s, me);
  else if (!bg.token) status = "Spectating.";
  else if (s.phase === "opening") status = "Roll to start.";
  else if (s.player_to_act === me) {
    if (s.phase === "move") {
      status = `Your move: ${s.dice.join("-")}` + (bg.selected !== null ? ` (from ${bg.selected})` : "");
    } else {
      status = {roll: "Your roll.", doubled: `Doubled to ${s.cube * 2}: take or pass?`,
                resigned: "Your opponent resigns: accept?"}[s.phase] || s.phase;
    }
  } else status = s.bot ? "The bot is thinking..." : "Waiting for your opponent.";
  $("status").textContent = status;
  const row = $("actions");
  row.innerHTML = "";
  if (!mine() || s.over) return;
  for (const a of s.legal_actions) {
    if (a === "play") continue;
    const b = document.createElement("button");
    b.textContent = LABELS[a] || a; b.id = "act-" + a;
    b.onclick = () => send(a === "resign" ? {action: a, points: 1} : {action: a});
    row.appendChild(b);
  }
  if (s.phase === "move") {
    if (bg.steps.length) {
      const u = document.createElement("button");
      u.textContent = "Undo"; u.id = "act-undo";
      u.onclick = () => { bg.steps = []; bg.selected = null; refresh(); };
      row.appendChild(u);
    } else if (bg.turn.complete) {
      const n = document.createElement("button");
      n.textContent = "No move: pass the dice"; n.id = "act-nomove";
      n.onclick = () => send({action: "play", play: ""});
      row.appendChild(n);
    }
  }
}

async function send(body) {
  if (bg.busy) return;
  bg.busy = true;
  $("error").textContent = "";
  try {
    await api("POST", `/games/${bg.game}/actions`, {...body, seq: bg.state.seq});
  } catch (e) { $("error").textContent = e.message; }
  bg.busy = false;
  bg.steps = []; bg.selected = null;
  await refresh();
}

// The board's geometry (backgammon.svg, orientation "right"): 648 x 508 units;
// points 40 wide from x 64 (13-18 top, 12-7 bottom) and from x 344 (19-24 top,
// 6-1 bottom); the bar between x 304 and 344; the trays from x 584.
function point_at(event) {
  const svg = $("board").querySelector("svg");
  const r = svg.getBoundingClientRect();
  const x = (event.clientX - r.left) * 648 / r.width, y = (event.clientY - r.top) * 508 / r.height;
  if (x >= 304 && x < 344) return 25;
  if (x >= 584) return 0;
  let k;
  if (x >= 64 && x < 304) k = Math.floor((x - 64) / 40);
  else if (x >= 344 && x < 584) k = 6 + Math.floor((x - 344) / 40);
  else return null;
  return y < 254 ? 13 + k : 12 - k;
}

function click(point) {
  if (!mine() || !bg.state || bg.state.phase !== "move" || point === null || bg.busy) return;
  const legal = bg.turn.legal_moves;
  let step = null;
  if (bg.selected !== null) {
    step = legal.find(([a, b]) => a === bg.selected && b === point) || null;
    if (!step) { bg.selected = null; }
  }
  if (!step) {
    const from = legal.filter(([a]) => a === point);
    const to = legal.filter(([, b]) => b === point);
    if (from.length === 1 || (from.length > 1 && from.every(([, b]) => b === from[0][1]))) step = from[0];
    else if (from.length > 1) { bg.selected = point; draw(); return; }
    else if (to.length === 1) step = to[0];
  }
  if (step) { bg.steps.push(step); bg.selected = null; refresh(); }
}

$("board").addEventListener("click", (e) => click(point_at(e)));
$("vs-bot").onclick = () => create(true);
$("vs-human").onclick = () => create(false);
window.addEventListener("hashchange", open_game);
open_game();
