// The web client of `backgammon serve`: one page, no dependencies, nothing fetched
// but this server's own API.  Its seat and secret token live in the URL fragment
// (#game=ID&seat=0&token=T), which browsers never send to the server; a link
// without a token spectates.
//
// The page draws the board itself (SVG, in the geometry of backgammon.display.svg)
// so that it can highlight a checker and its destinations, animate each checker of
// both sides and show both players' dice.  It reads the game's journal
// (GET /games/{id}/actions) to know what happened between two states, and checks
// each step of a play against the legal plays the state lists, the way
// Position.legal_moves does; the server checks the whole play again when it is sent.
"use strict";

const bg = {
  game: null, seat: 0, token: null,   // from the fragment
  state: null,         // the state last shown (GET /games/{id})
  record: null,        // the journal read so far: the board, dice, move list
  results: {},         // game index -> result ({winner, points, kind, reason}) of a match's games
  turn: null,          // my move in progress (see newTurn)
  selected: null,      // the point whose checker is picked up
  busy: false,         // an action is being sent
  syncing: null,       // the promise of the catch-up running now
  animating: false,
  flights: [],         // every checker step shown: {player, from, to, ms}, for tests and the curious
  socket: null, generation: 0,
};
bg.isIdle = () => !bg.busy && !bg.syncing && !bg.animating;
window.bg = bg;  // for the browser test and the curious

const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------ the rules
// A board is 26 numbers seen by one player: points 1-24 (> 0 their checkers, < 0 the
// opponent's), 25 their bar, 0 the opponent's bar (<= 0); borne-off checkers are the
// ones missing from 15.  It is the library's board, so the server's lists fit it.

const INITIAL = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0];

const swapped = (b) => b.map((_, i) => -b[25 - i]);   // the same board seen by the other player

function moved(b, src, dst) {
  // the board after one checker went from src to dst (0: off), hitting a blot there
  const out = b.slice();
  out[src] -= 1;
  if (dst > 0) {
    if (out[dst] === -1) { out[dst] = 0; out[0] -= 1; }
    out[dst] += 1;
  }
  return out;
}

function allHome(b) {
  for (let p = 7; p <= 25; p++) if (b[p] > 0) return false;
  return true;
}

function step(b, src, die) {
  // one checker from src with die, or null when that step is illegal by itself (bg_step)
  if (src < 1 || src > 25 || b[src] <= 0) return null;
  if (b[25] > 0 && src !== 25) return null;                  // RULES 5.1: the bar first
  const to = src - die;
  if (to >= 1) return b[to] <= -2 ? null : moved(b, src, to);
  if (!allHome(b)) return null;                             // 6.1: bearing off, all home
  if (to < 0) {                                             // 6.4: a higher die, highest point only
    for (let p = src + 1; p <= 6; p++) if (b[p] > 0) return null;
  }
  return moved(b, src, 0);
}

const without = (dice, die) => { const i = dice.indexOf(die); return dice.filter((_, k) => k !== i); };

class Turn {
  // The legal plays of one roll, to check steps one by one: a step is legal when the
  // turn can still end in one of the plays' results with as many dice as they use
  // (position.py's _Turn, so the page offers what GET /games/{id}/turn would).
  constructor(board, dice, plays) {
    const [d1, d2] = dice;
    this.board = board;
    this.dice = d1 === d2 ? [d1, d1, d1, d1] : [d1, d2];
    this.ndice = plays.length ? plays[0].moves.length : 0;
    this.targets = new Set(plays.map((p) => p.moves.reduce((b, [s, t]) => moved(b, s, t), board).join()));
    this.memo = new Map();
  }

  replay(steps) {
    // every (board, dice left) the steps can lead to from which the turn can still end
    // legally (a bear-off may use either die)
    if (steps.length > this.ndice) return [];
    let states = [{board: this.board, rest: this.dice}];
    for (const [src, dst] of steps) {
      const next = [];
      for (const {board, rest} of states) {
        for (const die of new Set(rest)) {
          if (dst > 0 ? src - dst !== die : die < src) continue;
          const after = step(board, src, die);
          if (after) next.push({board: after, rest: without(rest, die)});
        }
      }
      states = next;
    }
    return states.filter((s) => this.completes(s.board, s.rest, this.ndice - steps.length));
  }

  completes(board, rest, need) {
    if (need === 0) return this.targets.has(board.join());
    const key = `${board.join()}|${rest.slice().sort().join()}|${need}`;
    if (!this.memo.has(key)) {
      let ok = false;
      for (const die of new Set(rest)) {
        for (let src = 25; src >= 1 && !ok; src--) {
          const after = step(board, src, die);
          ok = after !== null && this.completes(after, without(rest, die), need - 1);
        }
      }
      this.memo.set(key, ok);
    }
    return this.memo.get(key);
  }

  legalMoves(steps) {
    // the steps that may come next, highest starting point first ([] once complete)
    if (steps.length >= this.ndice) return [];
    const found = new Map();
    for (const {board, rest} of this.replay(steps)) {
      for (const die of new Set(rest)) {
        for (let src = 25; src >= 1; src--) {
          const after = step(board, src, die);
          if (after && this.completes(after, without(rest, die), this.ndice - steps.length - 1)) {
            const dst = Math.max(src - die, 0);
            found.set(`${src}/${dst}`, [src, dst]);
          }
        }
      }
    }
    return [...found.values()].sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  }

  diceLeft(steps) {
    const states = this.replay(steps);
    return states.length ? states[0].rest : [];
  }
}

// ------------------------------------------------------------------ notation
// gnubg's, as backgammon.notation.format_play writes it: steps sorted by starting
// point, one checker's steps joined ("24/13"), an intermediate point only where it
// hit ("13/7*/5"), identical moves counted ("8/5(2)"), "bar" and "off".

const pointName = (p) => (p === 25 ? "bar" : p === 0 ? "off" : String(p));

function playChains(moves) {
  const chains = [];
  for (const [src, dst] of moves.slice().sort((a, b) => b[0] - a[0] || b[1] - a[1])) {
    const chain = chains.find((c) => c[c.length - 1] === src);
    if (chain) chain.push(dst); else chains.push([src, dst]);
  }
  return chains;
}

function formatPlay(board, moves) {
  const units = [];
  for (const chain of playChains(moves)) {
    const last = units[units.length - 1];
    if (last && last.chain.join() === chain.join()) last.count += 1;
    else units.push({chain, count: 1});
  }
  const hit = new Set();
  return units.map(({chain, count}) => {
    const parts = [pointName(chain[0])];
    chain.slice(1).forEach((p, k) => {
      const star = p >= 1 && p <= 24 && board[p] < 0 && !hit.has(p);
      if (star) hit.add(p);
      if (star || k === chain.length - 2) parts.push(pointName(p) + (star ? "*" : ""));
    });
    return parts.join("/") + (count > 1 ? `(${count})` : "");
  }).join(" ");
}

const diceText = ([a, b]) => `${Math.max(a, b)}${Math.min(a, b)}`;   // "31", as move lists write it

// ------------------------------------------------------------------ who is who

function isPlayer() { return bg.token !== null; }

function name(seat) {
  // a player reads "You" and "Bot" or "Opponent"; a spectator the colours on the board
  if (!isPlayer()) return seat === bg.seat ? "White" : "Black";
  if (seat === bg.seat) return "You";
  return bg.state && bg.state.bot ? "Bot" : "Opponent";
}

const KINDS = {single: "a single game", gammon: "a gammon", backgammon: "a backgammon"};
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function resultText(r) {
  // "White wins a gammon, 2 points." to a spectator, "You won ..." / "You lost ..." to a player
  const what = `${KINDS[r.kind] || r.kind}, ${plural(r.points, "point")}`;
  const how = r.reason === "drop" ? " (double passed)" : r.reason === "resign" ? " (resigned)" : "";
  if (!isPlayer()) return `${name(r.winner)} wins ${what}${how}.`;
  return `${r.winner === bg.seat ? "You won" : "You lost"} ${what}${how}.`;
}

function matchText(s) {
  const score = `${s.score[bg.seat]}–${s.score[1 - bg.seat]}`;
  if (!isPlayer()) return `${name(s.winner)} wins the match (${name(bg.seat)} ${score}).`;
  return `${s.winner === bg.seat ? "You won" : "You lost"} the match, ${score}.`;
}

// ------------------------------------------------------------------ the record
// What the journal says, seen by the viewer's seat: the board, the last dice, the cube,
// and each game's move list, two columns (the viewer's, then the other's) as gnubg
// writes them.

class Record {
  constructor(viewer) {
    this.viewer = viewer;
    this.games = [];      // {index, rows: [{cells: [[], []], done: [bool, bool]}]}
    this.board = INITIAL.slice();
    this.dice = null;     // {player (null: the opening's tie), values}
    this.last = null;     // the last play: {player, steps}
    this.cube = 1; this.offered = 1;
  }

  get current() { return this.games[this.games.length - 1]; }

  mover(board, player) { return player === this.viewer ? board : swapped(board); }

  apply(board, player, [src, dst]) {
    // one step of `player` (in their numbering) on a board seen by the viewer
    return player === this.viewer ? moved(board, src, dst)
                                  : swapped(moved(swapped(board), src, dst));
  }

  place(player, text, ends) {
    // a column's cell takes the player's texts until their turn ends there; the
    // viewer's column starts a new row once the other column has something
    const col = player === this.viewer ? 0 : 1;
    let row = this.current.rows[this.current.rows.length - 1];
    if (!row || row.done[col] || (col === 0 && row.cells[1].length)) {
      row = {cells: [[], []], done: [false, false]};
      this.current.rows.push(row);
    }
    row.cells[col].push(text);
    if (ends) row.done[col] = true;
  }

  add(e) {
    // one journal entry; returns what the page shows of it: {kind, player, before, steps}
    const newGame = !this.current || e.game !== this.current.index;
    if (newGame) {
      this.games.push({index: e.game, rows: [], notes: []});
      this.board = INITIAL.slice(); this.dice = null; this.last = null;
      this.cube = 1; this.offered = 1;
    }
    const p = e.player, before = this.board;
    let text = null;   // what the status line says while it is shown
    switch (e.kind) {
      case "opening": {
        const [d0, d1] = e.value;
        if (d0 === d1) {
          this.dice = {player: null, values: [d0, d1]};
          this.current.notes.push(`Opening roll ${d0}-${d1}: roll again.`);
        } else {
          const first = d0 > d1 ? 0 : 1;
          this.dice = {player: first, values: first === 0 ? [d0, d1] : [d1, d0]};
          text = `${name(first)} ${first === this.viewer && isPlayer() ? "start" : "starts"} with ${Math.max(d0, d1)}-${Math.min(d0, d1)}.`;
        }
        break;
      }
      case "roll": this.dice = {player: p, values: e.value}; text = `${name(p)} rolled ${e.value.join("-")}.`; break;
      case "play": {
        const play = formatPlay(this.mover(before, p), e.value) || "no move";
        this.place(p, `${this.dice ? diceText(this.dice.values) : "??"}: ${play}`, true);
        text = `${name(p)} played ${play}.`;
        this.board = e.value.reduce((b, s) => this.apply(b, p, s), before);
        this.last = {player: p, steps: e.value};
        break;
      }
      case "double": this.offered = this.cube * 2; this.place(p, `Doubles to ${this.offered}`, false); break;
      case "beaver": this.cube = this.offered; this.offered *= 2;
        this.place(p, `Beavers to ${this.offered}`, false); break;
      case "take": this.cube = this.offered; this.place(p, "Takes", true); break;
      case "drop": this.place(p, "Passes", true); break;
      case "resign": this.place(p, `Resigns ${KINDS[e.value] || e.value}`, false); break;
      case "accept": this.place(p, "Accepts", true); break;
      case "reject": this.place(p, "Rejects", true); break;
      default: this.place(p, e.kind, true);
    }
    return {kind: e.kind, player: p, before, steps: e.kind === "play" ? e.value : null, newGame, text};
  }
}

// ------------------------------------------------------------------ the board picture
// The geometry of backgammon.display.svg (orientation "right", 648 x 508 units): the
// viewer's checkers are light and go round to the bottom right.  Side 0 is the viewer,
// side 1 the other player; places are a point 1-24 (viewer's numbering), "bar" or "off".

const G = {W: 648, H: 508, TOP: 34, BOTTOM: 474, MIDDLE: 254, R: 18, PITCH: 36, TRI: 176};
const COLOURS = {case: "#6b4226", field: "#2e6b45", dark: "#9c3b30", light: "#d8c39a",
                 tray: "#3a2414", label: "#333333"};
const SVG_NS = "http://www.w3.org/2000/svg";

function pointX(p) {
  const k = p >= 13 ? p - 13 : 12 - p;
  return (k < 6 ? 64 : 104) + 40 * k + 20;
}

function count(board, side, place) {
  if (place === "bar") return side === 0 ? board[25] : -board[0];
  if (place === "off") {
    let on = 0;
    for (const v of board) if (side === 0 ? v > 0 : v < 0) on += Math.abs(v);
    return 15 - on;
  }
  return side === 0 ? Math.max(board[place], 0) : Math.max(-board[place], 0);
}

function checkerXY(side, place, slot) {
  // the centre of the slot-th checker (from 0) of a stack; past five they pile on the fifth
  const s = Math.min(slot, 4);
  if (place === "bar") return [324, side === 0 ? G.MIDDLE + 30 + G.PITCH * s : G.MIDDLE - 30 - G.PITCH * s];
  if (place === "off") return [622, side === 0 ? G.BOTTOM - 8.5 - 13 * slot : G.TOP + 8.5 + 13 * slot];
  return [pointX(place), place >= 13 ? G.TOP + 19 + G.PITCH * s : G.BOTTOM - 19 - G.PITCH * s];
}

function placeOf(side, point) {
  // a step's end (in its mover's numbering) as a place on the viewer's board
  if (point === 25) return "bar";
  if (point === 0) return "off";
  return side === 0 ? point : 25 - point;
}

function node(parent, tag, attrs, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}

function drawFrame(svg) {
  node(svg, "rect", {x: 0, y: 0, width: G.W, height: G.H, fill: "#ffffff"});
  node(svg, "rect", {x: 0, y: 22, width: G.W, height: 464, rx: 6, fill: COLOURS.case});
  for (const x of [64, 344]) node(svg, "rect", {x, y: G.TOP, width: 240, height: 440, fill: COLOURS.field});
  for (let p = 1; p <= 24; p++) {
    const x = pointX(p), top = p >= 13, base = top ? G.TOP : G.BOTTOM, tip = top ? G.TOP + G.TRI : G.BOTTOM - G.TRI;
    node(svg, "polygon", {points: `${x - 19},${base} ${x + 19},${base} ${x},${tip}`,
                          fill: p % 2 ? COLOURS.dark : COLOURS.light});
    node(svg, "text", {x, y: top ? 16 : 500, class: "label"}, String(p));
  }
  for (const [y, h] of [[G.TOP, 210], [G.MIDDLE + 10, 210]]) {
    node(svg, "rect", {x: 604, y, width: 36, height: h, rx: 3, fill: COLOURS.tray});
  }
}

function drawChecker(parent, side, x, y, label, cls) {
  const g = node(parent, "g", {class: `checker ${side === 0 ? "own" : "opp"} ${cls || ""}`,
                               transform: `translate(${x} ${y})`});
  node(g, "circle", {r: G.R - 0.75, class: "body"});
  node(g, "circle", {r: G.R * 0.62, class: "ring"});
  if (label) node(g, "text", {y: 1, class: "count"}, label);
  return g;
}

function drawStacks(svg, board, hide) {
  // every checker; `hide` ({side, place}) leaves out the top one of a stack (it is in the air)
  for (const side of [0, 1]) {
    const places = ["bar", "off"];
    for (let p = 1; p <= 24; p++) places.push(p);
    for (const place of places) {
      const n = count(board, side, place) - (hide && hide.side === side && hide.place === place ? 1 : 0);
      if (place === "off") {
        for (let j = 0; j < n; j++) {
          const [, y] = checkerXY(side, "off", j);
          node(svg, "rect", {x: 607, y: y - 5.5, width: 30, height: 11, rx: 2,
                             class: `slab ${side === 0 ? "own" : "opp"}`});
        }
        if (n) node(svg, "text", {x: 622, y: side === 0 ? G.MIDDLE + 20 : G.MIDDLE - 12, class: "tray-count"}, String(n));
        continue;
      }
      for (let slot = 0; slot < Math.min(n, 5); slot++) {
        const [x, y] = checkerXY(side, place, slot);
        drawChecker(svg, side, x, y, slot === 4 && n > 5 ? String(n) : "");
      }
    }
  }
}

function pips(board, side) {
  let n = 0;
  for (let p = 0; p <= 25; p++) {
    if (side === 0 && board[p] > 0) n += p * board[p];
    if (side === 1 && board[p] < 0) n += (25 - p) * -board[p];
  }
  return n;
}

function drawInfo(svg, board) {
  node(svg, "text", {x: 26, y: G.TOP + 14, class: "pips"}, "pips");
  node(svg, "text", {x: 26, y: G.TOP + 32, class: "pips"}, String(pips(board, 1)));
  node(svg, "text", {x: 26, y: G.BOTTOM - 22, class: "pips"}, String(pips(board, 0)));
  node(svg, "text", {x: 26, y: G.BOTTOM - 6, class: "pips"}, "pips");
  const s = bg.state;
  if (!s) return;
  const owner = s.cube_owner === null ? null : s.cube_owner === bg.seat ? 0 : 1;
  const y = owner === null ? G.MIDDLE : owner === 1 ? 100 : 408;
  const g = node(svg, "g", {class: "cube", transform: `translate(26 ${y})`});
  node(g, "rect", {x: -18, y: -18, width: 36, height: 36, rx: 5});
  node(g, "text", {y: 1}, String(owner === null && s.cube === 1 ? 64 : s.cube));
}

const PIPS = {1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
              4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
              6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]]};

function drawDice(svg, dice, left) {
  // the viewer's dice in the right half, the other player's in the left one (the
  // opening's two dice one each side; doubles as four dice); while I move, the dice
  // not `left` to play are dimmed
  if (!dice) return;
  const centre = (side) => (side === 0 ? 464 : 184);
  let shown;
  if (dice.player === null) {
    shown = [{side: 0, v: dice.values[bg.seat], x: centre(0)}, {side: 1, v: dice.values[1 - bg.seat], x: centre(1)}];
  } else {
    const side = dice.player === bg.seat ? 0 : 1, [a, b] = dice.values;
    const values = a === b ? [a, a, a, a] : [a, b];
    shown = values.map((v, k) => ({side, v, x: centre(side) + 48 * (k - (values.length - 1) / 2)}));
  }
  const rest = left ? left.slice() : null;
  for (const d of shown.slice().reverse()) {   // the last dice are the ones left (doubles)
    d.used = rest !== null && !rest.includes(d.v);
    if (rest && !d.used) rest.splice(rest.indexOf(d.v), 1);
  }
  shown.forEach(({side, v, x, used}) => {
    const g = node(svg, "g", {class: `die${used ? " used" : ""}`, transform: `translate(${x} ${G.MIDDLE})`,
                              "data-side": side, "data-value": v});
    node(g, "rect", {x: -18, y: -18, width: 36, height: 36, rx: 6});
    for (const [dx, dy] of PIPS[v]) node(g, "circle", {cx: 9.5 * dx, cy: 9.5 * dy, r: 3.6});
  });
}

function drawMarks(svg, board, marks) {
  // the last play's ends, the checkers I may move, the one picked up and where it may go
  for (const {side, place, kind} of marks.last) {
    const n = count(board, side, place);
    if (kind === "from") {
      const [x, y] = checkerXY(side, place, n);
      node(svg, "circle", {cx: x, cy: y, r: G.R - 3, class: "from"});
    } else if (n && place !== "off") {
      const [x, y] = checkerXY(side, place, n - 1);
      node(svg, "circle", {cx: x, cy: y, r: G.R + 1, class: "to"});
    }
  }
  for (const p of marks.movable) {
    const [x, y] = checkerXY(0, placeOf(0, p), count(board, 0, placeOf(0, p)) - 1);
    node(svg, "circle", {cx: x, cy: y, r: G.R + 1, class: p === marks.selected ? "selected" : "movable"});
  }
  for (const p of marks.dests.keys()) {
    if (p === 0) {
      node(svg, "rect", {x: 604, y: G.MIDDLE + 10, width: 36, height: 210, rx: 3, class: "dest"});
      continue;
    }
    const n = board[p] === -1 ? 0 : count(board, 0, p);
    const [x, y] = checkerXY(0, p, n);
    node(svg, "circle", {cx: x, cy: y, r: G.R - 1, class: "dest"});
  }
}

function drawZones(svg, board, marks) {
  // transparent targets for clicks, on top: one per point, the bar and my tray;
  // their data attributes say what is there (for tests and assistive reading)
  const zone = (attrs, point) => {
    const z = node(svg, "rect", {...attrs, class: "zone", "data-point": point});
    if (point >= 1 && point <= 24) {
      z.dataset.own = count(board, 0, point); z.dataset.opp = count(board, 1, point);
    }
    if (marks.dests.has(point)) z.dataset.dest = "1";
    if (marks.selected === point) z.dataset.selected = "1";
    return z;
  };
  for (let p = 1; p <= 24; p++) {
    zone({x: pointX(p) - 20, y: p >= 13 ? G.TOP : G.MIDDLE, width: 40, height: 220}, p);
  }
  zone({x: 304, y: G.TOP, width: 40, height: 440}, 25).dataset.own = board[25];
  zone({x: 604, y: G.MIDDLE, width: 44, height: 220}, 0).dataset.own = count(board, 0, "off");
}

function drawBoard(board, opts = {}) {
  const marks = {last: [], movable: [], dests: new Map(), selected: null, ...opts.marks};
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${G.W} ${G.H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Board: ${name(bg.seat)} ${pips(board, 0)} pips, ` +
                                 `${name(1 - bg.seat)} ${pips(board, 1)} pips`);
  drawFrame(svg);
  drawInfo(svg, board);
  drawDice(svg, opts.dice, opts.left || null);
  drawStacks(svg, board, opts.hide);
  drawMarks(svg, board, marks);
  node(svg, "g", {class: "air"});   // checkers in flight
  drawZones(svg, board, marks);
  $("board").replaceChildren(svg);
  return svg;
}

// ------------------------------------------------------------------ animation
// A step is one checker flying from its stack to its new place (and a checker it hit
// flying to the bar), a few hundred milliseconds; none when the reader asked for
// reduced motion, or the tab is hidden (no frames are drawn there).

const MS = {theirs: 260, mine: 140, dice: 350};

function motion(ms) {
  const reduce = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
  return reduce || document.hidden ? 0 : ms;
}

function fly(svg, side, [x0, y0], [x1, y1], ms) {
  const g = drawChecker(svg.querySelector(".air"), side, x0, y0, "", "flying");
  const start = performance.now();
  const frame = (now) => {
    const t = Math.min(1, (now - start) / ms), e = t < 0.5 ? 2 * t * t : 1 - (2 - 2 * t) ** 2 / 2;
    g.setAttribute("transform", `translate(${x0 + (x1 - x0) * e} ${y0 + (y1 - y0) * e})`);
    if (t < 1) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  return pause(ms);   // ends on time even if frames lag: the next drawing replaces it
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function animateStep(board, player, stepped, opts, ms) {
  // one step of `player` from `board`; returns the board after it
  const side = player === bg.seat ? 0 : 1, [src, dst] = stepped;
  const from = placeOf(side, src), to = placeOf(side, dst);
  const after = bg.record.apply(board, player, stepped);
  bg.flights.push({player, from: src, to: dst, ms});
  if (ms) {
    const svg = drawBoard(board, {...opts, hide: {side, place: from}});
    const start = checkerXY(side, from, count(board, side, from) - 1);
    await fly(svg, side, start, checkerXY(side, to, count(after, side, to) - 1), ms);
    if (count(after, 1 - side, "bar") > count(board, 1 - side, "bar")) {   // a hit
      const svg2 = drawBoard(after, {...opts, hide: {side: 1 - side, place: "bar"}});
      await fly(svg2, 1 - side, checkerXY(1 - side, to, 0),
                checkerXY(1 - side, "bar", count(after, 1 - side, "bar") - 1), ms * 0.7);
    }
  }
  drawBoard(after, opts);
  return after;
}

async function animate(shown, index, live) {
  // what the record made of one journal entry, shown: dice, then each checker (while
  // `live()`: the page has not moved on to another game meanwhile)
  if (shown.text && index !== bg.localPlay) $("status").textContent = shown.text;
  if (shown.kind === "opening" || shown.kind === "roll") {
    drawBoard(bg.record.board, {dice: bg.record.dice});
    await pause(motion(MS.dice));
  } else if (shown.kind === "play" && index !== bg.localPlay) {   // my own play is on the board already
    let board = shown.before;
    for (const s of shown.steps) {
      if (!live()) return;
      board = await animateStep(board, shown.player, s, {dice: bg.record.dice}, motion(MS.theirs));
    }
  } else if (shown.newGame) {
    drawBoard(bg.record.board);
  }
}

// ------------------------------------------------------------------ my move

function newTurn(s, board) {
  // the move I am making: its rules, the steps made so far and the clicks that made them
  const rules = new Turn(board, s.dice, s.legal_plays || []);
  const turn = {seq: s.seq, rules, start: board, steps: [], clicks: [], legal_moves: [], complete: false};
  update(turn);
  return turn;
}

function update(turn) {
  turn.legal_moves = turn.rules.legalMoves(turn.steps);
  turn.complete = turn.legal_moves.length === 0;
  turn.board = turn.steps.reduce((b, [s, t]) => moved(b, s, t), turn.start);
}

function destinations(turn, from) {
  // where the checker on `from` can go this turn, with the steps taking it there: one
  // die, or several in a row; a point that two routes reach with different results
  // (one hits on the way) is left to single steps
  const routes = new Map();   // destination -> the shortest routes there
  const walk = (path, at) => {
    for (const s of turn.rules.legalMoves(turn.steps.concat(path))) {
      if (s[0] !== at) continue;
      const next = path.concat([s]);
      const known = routes.get(s[1]) || [];
      if (!known.length || next.length < known[0].length) routes.set(s[1], [next]);
      else if (next.length === known[0].length) known.push(next);
      if (s[1] > 0) walk(next, s[1]);
    }
  };
  walk([], from);
  const out = new Map();
  for (const [dest, found] of routes) {
    const results = new Set(found.map((r) => r.reduce((b, [a, c]) => moved(b, a, c), turn.board).join()));
    if (results.size === 1) out.set(dest, {steps: found[0]});
  }
  return out;
}

function myMove() {
  const s = bg.state;
  return bg.turn && s && s.phase === "move" && s.player_to_act === bg.seat && isPlayer() && !bg.busy;
}

async function makeSteps(steps) {
  // my click made these steps: fly the checker, then offer the next ones
  const turn = bg.turn;
  bg.selected = null;
  bg.animating = true;
  try {
    let board = turn.board;
    for (const s of steps) {
      const left = turn.rules.diceLeft(turn.steps.concat([s]));
      board = await animateStep(board, bg.seat, s, {dice: bg.record.dice, left}, motion(MS.mine));
      turn.steps.push(s);
    }
  } finally { bg.animating = false; }
  turn.clicks.push(steps.length);
  update(turn);
  render();
}

function click(point) {
  if (!myMove() || bg.animating || point === null) return;
  const turn = bg.turn;
  if (bg.selected !== null) {
    const dest = destinations(turn, bg.selected).get(point);
    if (dest) { makeSteps(dest.steps); return; }
    if (point === bg.selected) { bg.selected = null; render(); return; }
  }
  if (turn.legal_moves.some(([a]) => a === point)) { bg.selected = point; render(); return; }
  // nothing of mine to pick up here: a click on a destination that only one checker
  // can reach by one die moves that checker
  const to = turn.legal_moves.filter(([, b]) => b === point);
  if (to.length === 1) { makeSteps([to[0]]); return; }
  bg.selected = null;
  render();
}

function undo() {
  // takes back the last click's steps (a checker moved several points at once comes back whole)
  const turn = bg.turn;
  if (!turn || !turn.clicks.length || bg.animating || bg.busy) return;
  turn.steps.splice(turn.steps.length - turn.clicks.pop());
  bg.selected = null;
  update(turn);
  render();
}

function done() {
  if (!myMove() || !bg.turn.complete || bg.animating) return;
  bg.localPlay = bg.state.seq;   // the journal entry that will be this play: shown already
  send(bg.turn.rules.ndice ? {action: "play", moves: bg.turn.steps} : {action: "play", play: ""});
}

// ------------------------------------------------------------------ talking to the server

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
  let data = null;
  try { data = await r.json(); } catch (e) { /* not JSON: a proxy's error page, say */ }
  if (!r.ok || data === null) throw new Error((data && data.message) || `${r.status} ${r.statusText}`);
  return data;
}

async function send(body) {
  if (bg.busy) return;
  bg.busy = true;
  $("error").textContent = "";
  render();
  let failed = false;
  try {
    await api("POST", `/games/${bg.game}/actions`, {...body, seq: bg.state.seq});
  } catch (e) {
    $("error").textContent = e.message;
    failed = true;
    bg.localPlay = null;
  }
  bg.busy = false;
  await sync(failed);   // a refused action: back to the game as the server has it
}

function sync(again = false) {
  // one catch-up at a time; a call during one runs another after it
  bg.syncForce = bg.syncForce || again;
  if (bg.syncing) { bg.syncAgain = true; return bg.syncing; }
  bg.syncing = (async () => {
    do {
      bg.syncAgain = false;
      const force = bg.syncForce;
      bg.syncForce = false;
      try { await catchUp(force); } catch (e) { $("error").textContent = e.message; }
    } while (bg.syncAgain);
  })().finally(() => { bg.syncing = null; render(); });
  return bg.syncing;
}

async function catchUp(force) {
  // shows what happened since the state on the page: each journal entry in turn
  const game = bg.game, generation = bg.generation;
  const live = () => generation === bg.generation;   // openGame moves the generation on
  const state = await api("GET", `/games/${game}`);
  if (!live()) return;
  if (bg.state && state.seq === bg.state.seq && !force) return;   // a WebSocket's hello
  const first = !bg.state, start = first ? 0 : bg.state.seq;
  let entries = [];
  if (state.seq > start) {
    entries = (await api("GET", `/games/${game}/actions?start=${start}`)).entries.slice(0, state.seq - start);
    if (!live()) return;
  }
  if (first) bg.record = new Record(bg.seat);
  bg.animating = !first && entries.length > 0;
  try {
    for (const [k, e] of entries.entries()) {
      if (!live()) return;
      const shown = bg.record.add(e);
      if (!first) await animate(shown, start + k, live);
    }
  } finally { bg.animating = false; }
  if (!live()) return;
  await fetchResults(state, live);
  if (live()) adopt(state);
}

async function fetchResults(state, live) {
  // a match's finished games are gone from the state: their results are in the export
  const finished = bg.record.games.map((g) => g.index).filter((i) => i < state.game_number - 1);
  if (!finished.some((i) => !(i in bg.results))) return;
  try {
    const record = await api("GET", `/games/${bg.game}/export?format=json`);
    if (live()) record.games.forEach((g, i) => { if (g.result) bg.results[i] = g.result; });
  } catch (e) { /* the list goes without those results */ }
}

function viewBoard(s) { return s.board_player === bg.seat ? s.board : swapped(s.board); }

function adopt(s) {
  // the state as the server has it: the board is the server's, whatever the page made of it
  bg.state = s;
  bg.localPlay = null;
  const board = viewBoard(s);
  if (board.join() !== bg.record.board.join()) {
    console.warn("the journal and the state differ: showing the state");
    bg.record.board = board;
  }
  if (s.phase === "move" && (!bg.record.dice || bg.record.dice.values.join() !== s.dice.join())) {
    bg.record.dice = {player: s.turn, values: s.dice};
  }
  bg.record.cube = s.cube;
  bg.selected = null;
  bg.turn = isPlayer() && s.phase === "move" && s.player_to_act === bg.seat ? newTurn(s, board) : null;
  render();
}

function listen() {
  const generation = bg.generation;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/games/${bg.game}/events`);
  ws.onmessage = () => { if (generation === bg.generation) sync(); };
  ws.onclose = () => {   // the server restarted: come back (unless the page moved on)
    if (generation === bg.generation) setTimeout(() => generation === bg.generation && listen(), 2000);
  };
  bg.socket = ws;
}

// ------------------------------------------------------------------ the page

const LABELS = {roll: "Roll", double: "Double", take: "Take", drop: "Pass", beaver: "Beaver",
                resign: "Resign", accept: "Accept", reject: "Reject"};

function statusText() {
  const s = bg.state, me = bg.seat, other = 1 - me;
  if (!s) return "Loading…";
  if (s.over) return s.match_length ? `${resultText(s.result)} ${matchText(s)}` : resultText(s.result);
  const previous = bg.results[s.game_number - 2];   // a match's game just finished
  const lead = s.phase === "opening" && previous ? `${resultText(previous)} ` : "";
  const tie = s.phase === "opening" && bg.record.dice && bg.record.dice.player === null ? "Tie: " : "";
  if (bg.busy) return s.bot ? "The bot is thinking…" : "Sending…";
  if (!isPlayer()) {
    const who = s.player_to_act === null ? "" : name(s.player_to_act);
    return lead + tie + ({opening: "Waiting for the opening roll.", roll: `${who} to roll.`,
                          move: `${who} to move ${s.dice ? s.dice.join("-") : ""}.`,
                          doubled: `${who} to take or pass a double to ${s.cube * 2}.`,
                          resigned: `${who} to accept or reject a resignation.`}[s.phase] || s.phase);
  }
  if (s.phase === "opening") return `${lead}${tie}Roll to start${s.match_length ? ` game ${s.game_number}` : ""}.`;
  if (s.player_to_act !== me) return s.bot ? "The bot is thinking…" : `Waiting for ${name(other).toLowerCase()}…`;
  if (s.phase === "move") {
    const d = s.dice.join("-"), t = bg.turn;
    if (!t.rules.ndice) return `No legal move with ${d}: pass the dice.`;
    if (t.complete) return "Done? Or undo.";
    if (bg.selected !== null) return `Your move: ${d}. Click where it goes.`;
    return `Your move: ${d}. Click a checker.`;
  }
  if (s.phase === "roll") return s.legal_actions.includes("double") ? "Roll, or double." : "Your roll.";
  if (s.phase === "doubled") return `${name(other)} doubles to ${s.cube * 2}: take or pass?`;
  if (s.phase === "resigned") {
    const r = s.resignation;
    return `${name(other)} resigns ${KINDS[r.kind] || r.kind}: accept?`;
  }
  return s.phase;
}

function button(row, id, text, action, primary) {
  const b = document.createElement("button");
  b.id = id; b.textContent = text; b.onclick = action;
  if (primary) b.className = "primary";
  row.appendChild(b);
  return b;
}

function renderActions() {
  const s = bg.state, row = $("actions");
  row.replaceChildren();
  if (!s) return;
  if (s.over) {
    if (s.bot && isPlayer()) button(row, "act-again", "Play again", playAgain, true);
    return;
  }
  const canAct = isPlayer() && !bg.busy && (s.player_to_act === bg.seat || s.phase === "opening");
  if (!canAct) return;
  if (bg.turn) {
    const t = bg.turn;
    if (!t.rules.ndice) button(row, "act-nomove", "No move: pass the dice", done, true);
    else {
      button(row, "act-done", "Done", done, true).disabled = !t.complete;
      button(row, "act-undo", "Undo", undo).disabled = !t.steps.length;
    }
  }
  for (const a of s.legal_actions) {
    if (a === "play") continue;
    if (a === "roll" && s.over_the_board) { rollEntry(row); continue; }
    const body = a === "resign" ? {action: a, points: 1} : {action: a};
    button(row, "act-" + a, a === "resign" ? "Resign (1 point)" : LABELS[a] || a, () => send(body),
           a === "roll" || a === "take");
  }
}

function rollEntry(row) {
  // over the board the players say what they rolled (at the opening: each player's die,
  // player 0's first, as the server takes them)
  const opening = bg.state.phase === "opening";
  const pick = (id, label) => {
    const sel = document.createElement("select");
    sel.id = id; sel.title = label; sel.setAttribute("aria-label", label);
    for (let v = 1; v <= 6; v++) sel.appendChild(new Option(String(v), String(v)));
    row.appendChild(sel);
    return sel;
  };
  const a = pick("die-a", opening ? `${name(0)}: die` : "first die");
  const b = pick("die-b", opening ? `${name(1)}: die` : "second die");
  button(row, "act-roll", "Enter the roll",
         () => send({action: "roll", dice: [parseInt(a.value, 10), parseInt(b.value, 10)]}), true);
}

function renderScore() {
  const s = bg.state;
  if (!s) return;
  const me = bg.seat, other = 1 - me;
  const scores = `${name(me)} ${s.score[me]} · ${name(other)} ${s.score[other]}`;
  $("score").textContent = s.match_length
    ? `Match to ${s.match_length}: ${scores}${s.crawford ? " · Crawford game" : ""}`
    : `Money game${s.over ? `: ${scores}` : ""}`;
}

function renderInfo() {
  const s = bg.state;
  if (!s) return;
  const cube = `cube ${s.cube}` + (s.cube_owner === null ? " (centred)" :
               s.cube_owner === bg.seat && isPlayer() ? " (yours)" : ` (${name(s.cube_owner)})`);
  $("info").textContent = `Game ${s.game_number}; ${cube}; position ${s.position_id}:${s.match_id}`;
}

function renderMoves() {
  const rec = bg.record, table = $("moves");
  if (!rec) return;
  const head = table.tHead.rows[0].cells;
  head[1].textContent = name(bg.seat); head[2].textContent = name(1 - bg.seat);
  const body = document.createElement("tbody");
  const line = (cls, text) => {
    const tr = body.insertRow(); tr.className = cls;
    const td = tr.insertCell(); td.colSpan = 3; td.textContent = text;
  };
  for (const g of rec.games) {
    if (bg.state && bg.state.match_length) line("game", `Game ${g.index + 1}`);
    g.notes.forEach((n) => line("note", n));
    g.rows.forEach((r, i) => {
      const tr = body.insertRow();
      const num = tr.insertCell();
      num.className = "num"; num.textContent = String(i + 1);
      r.cells.forEach((texts, col) => {
        const td = tr.insertCell();
        td.dataset.seat = col === 0 ? bg.seat : 1 - bg.seat;
        for (const t of texts) td.appendChild(document.createElement("div")).textContent = t;
      });
    });
    const current = g === rec.current && bg.state;
    const result = current && bg.state.result && bg.state.game_number === g.index + 1
      ? bg.state.result : bg.results[g.index];
    if (result) line("result", resultText(result));
  }
  const last = [...body.querySelectorAll("td[data-seat] div")].pop();
  if (last) last.className = "latest";
  table.replaceChild(body, table.tBodies[0]);
  const box = $("movelist");
  box.scrollTop = box.scrollHeight;   // the latest move in view
}

function marks() {
  // what the board highlights now
  const rec = bg.record, t = bg.turn, out = {last: [], movable: [], dests: new Map(), selected: null};
  if (rec.last && (!t || !t.steps.length)) {
    const side = rec.last.player === bg.seat ? 0 : 1;
    for (const chain of playChains(rec.last.steps)) {
      out.last.push({side, place: placeOf(side, chain[0]), kind: "from"});
      out.last.push({side, place: placeOf(side, chain[chain.length - 1]), kind: "to"});
    }
  }
  if (t && myMove()) {
    out.movable = [...new Set(t.legal_moves.map(([a]) => a))];
    if (bg.selected !== null) { out.selected = bg.selected; out.dests = destinations(t, bg.selected); }
  }
  return out;
}

function render() {
  if (!bg.state || !bg.record) return;
  if (!bg.animating) {
    const t = bg.turn;
    const board = t ? t.board : bg.record.board;
    const dice = bg.state.phase === "opening" && !(bg.record.dice && bg.record.dice.player === null)
      ? null : bg.record.dice;
    drawBoard(board, {dice, left: t ? t.rules.diceLeft(t.steps) : null, marks: marks()});
  }
  $("status").textContent = statusText();
  renderActions();
  renderScore();
  renderInfo();
  renderMoves();
}

// ------------------------------------------------------------------ lobby and games

async function create(vsBot) {
  const length = parseInt($("length").value || "0", 10);
  const body = {match_length: length};
  if (vsBot) body.bot = {seat: 1, ply: parseInt($("ply").value, 10)};
  try {
    const g = await api("POST", "/games", body);
    if (!vsBot) {
      $("other-link").value = `${location.origin}/#game=${g.id}&seat=1&token=${g.tokens["1"]}`;
      $("links").classList.remove("hidden");
    } else {
      $("links").classList.add("hidden");
    }
    location.hash = `game=${g.id}&seat=0&token=${g.tokens["0"]}`;  // opens it
  } catch (e) { $("error").textContent = $("lobby-error").textContent = e.message; }
}

function lobbyFromGame() {
  // the lobby offers the settings of the game just played
  const s = bg.state;
  if (!s) return;
  $("length").value = String(s.match_length);
  if (s.bot) $("ply").value = String(s.bot.ply);
}

function playAgain() { lobbyFromGame(); create(true); }

function newGame() { lobbyFromGame(); location.hash = ""; }

function openGame() {
  const f = fragment();
  bg.generation += 1;                      // the old game's socket and catch-ups stop here
  if (bg.socket) { bg.socket.onclose = null; bg.socket.close(); bg.socket = null; }
  Object.assign(bg, {state: null, record: null, results: {}, turn: null, selected: null, localPlay: null,
                     flights: []});
  $("error").textContent = "";
  if (!f.game) {
    bg.game = null;
    $("table").classList.add("hidden");
    $("lobby").classList.remove("hidden");
    return;
  }
  bg.game = f.game; bg.seat = parseInt(f.seat || "0", 10) === 1 ? 1 : 0; bg.token = f.token || null;
  $("lobby").classList.add("hidden");
  $("table").classList.remove("hidden");
  $("board").replaceChildren();
  listen();
  sync();
}

function pointOf(event) {
  const z = event.target.closest && event.target.closest("[data-point]");
  return z ? parseInt(z.dataset.point, 10) : null;
}

$("board").addEventListener("click", (e) => click(pointOf(e)));
document.addEventListener("keydown", (e) => {
  // Escape puts the checker down, Backspace or Ctrl+Z undoes, Enter plays a complete move
  // (not while a control has the focus: Enter there is that control's)
  if (!bg.turn || (e.target.closest && e.target.closest("input, select, textarea, button"))) return;
  if (e.key === "Escape" && bg.selected !== null) { bg.selected = null; render(); }
  else if (e.key === "Backspace" || (e.key === "z" && (e.ctrlKey || e.metaKey))) { e.preventDefault(); undo(); }
  else if (e.key === "Enter" && bg.turn && bg.turn.complete) done();
});
$("vs-bot").onclick = () => create(true);
$("vs-human").onclick = () => create(false);
$("new-game").onclick = newGame;
window.addEventListener("hashchange", openGame);
bg.lib = {Turn, formatPlay, swapped, moved, step};   // for the browser test
openGame();
