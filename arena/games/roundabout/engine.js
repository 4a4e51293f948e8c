/* Roundabout's replay engine for the browser (the contract is in
   arena/games/text_view.js): arena/games/roundabout/engine.py and
   text_view.py made again in JavaScript, so that a page rebuilds every
   state and every step's words from a record's events alone.

   The port mirrors the Python one function for one function, with the
   same names in camelCase (RoundaboutState._moves is _moves here,
   describe_effect is describeEffect), so that one can be read against the
   other; "decision N" is the numbered list of rules.md. A state travels as
   its JSON (to_json): ``apply`` rebuilds the engine's state from it
   (from_json), applies the event as arena/games/events.py ``replay`` does
   and returns the new state's JSON, a new object. Where Python semantics
   differ from JavaScript's the code says so: ``%`` and ``//`` on negative
   numbers, dict equality, KeyError and IndexError. tests/test_engines_js.py
   checks that both agree on every state and every step's words. */
(function (global) {
  "use strict";
  const engines = global.ArenaEngines = global.ArenaEngines || {};
  const {compact, pyMod, applyEvent, checkOffered, perBoard} = engines.util;

  // engine.py's TURN_CAP: turns (one per seat in rotation, decision 14)
  // after which the game is cut short as a draw. Not part of the board data.
  const TURN_CAP = 1000;
  // arena.games.base's current_player values for chance and a finished game.
  const CHANCE = -1, TERMINAL = -2;

  // The four ways a Dart can move, as indices into PATHS: round its ring
  // clockwise or anticlockwise (only the way it points), inward, outward.
  const CW = 0, CCW = 1, IN = 2, OUT = 3;
  const WAY_NAMES = ["ring", "ring", "in", "out"];
  const WAY_OF = {in: IN, out: OUT};
  const NO_BARS = new Set();  // never changed (Python: a frozenset)

  // Phases: "rolloff" and "roll" are chance, "play" and "offer" are decisions.
  const ROLLOFF = "rolloff", ROLL = "roll", PLAY = "play", OFFER = "offer", OVER = "over";

  // ------------------------------------------------------------ board tables
  // engine.py's module tables, read from the board data (Game.board) as the
  // Python engine reads them from the same data, once per board object.

  const tablesOf = perBoard(makeTables);

  function makeTables(board) {
    const BARS = board.bars, RINGS = board.rings;
    const NSPACES = RINGS * BARS;
    const RING_OF = board.spaces.map((s) => s.ring);
    const BAR_OF = board.spaces.map((s) => s.bar);
    const TERR_OF = board.spaces.map((s) => s.territory);
    // SPACE_AT[ring][bar] (Python: a dict keyed by (ring, bar)).
    const SPACE_AT = [];
    for (let r = 0; r < RINGS; r++) SPACE_AT.push([]);
    for (const s of board.spaces) SPACE_AT[s.ring][s.bar] = s.id;
    const TERRITORY_BARS = board.territories.map((t) => t.bars.slice());
    // Keyed by the player count as a string, as the JSON has them.
    const SEAT_TERRITORIES = board.seat_territories;
    const DARTS_PER_PLAYER = board.darts_per_player;
    const SETUPS = board.setups;
    // OWNERS[players][dart]: the seat that owns the Dart (dart // per).
    const OWNERS = {};
    for (const players of Object.keys(DARTS_PER_PLAYER)) {
      const per = DARTS_PER_PLAYER[players];
      OWNERS[players] = [];
      for (let dart = 0; dart < per * Number(players); dart++) OWNERS[players].push(Math.floor(dart / per));
    }

    /* The spaces orthogonally next to ``s``: the consecutive bars on its
       ring (the ring closes) and the adjacent rings on its bar. */
    function neighbours(s) {
      const ring = RING_OF[s], bar = BAR_OF[s];
      const near = [SPACE_AT[ring][pyMod(bar + 1, BARS)], SPACE_AT[ring][pyMod(bar - 1, BARS)]];
      for (const r of [ring - 1, ring + 1]) if (r >= 0 && r < RINGS) near.push(SPACE_AT[r][bar]);
      return near;
    }

    /* The spaces passed over and the landing space of a move, or null if it
       would leave the board (bars end at ring 0 and ring 4). */
    function path(s, way, steps) {
      const ring = RING_OF[s], bar = BAR_OF[s];
      const cells = [];
      if (way === CW || way === CCW) {
        const sign = way === CW ? 1 : -1;
        for (let k = 1; k <= steps; k++) cells.push(SPACE_AT[ring][pyMod(bar + sign * k, BARS)]);
      } else {
        const sign = way === IN ? -1 : 1;
        if (!(ring + sign * steps >= 0 && ring + sign * steps < RINGS)) return null;
        for (let k = 1; k <= steps; k++) cells.push(SPACE_AT[ring + sign * k][bar]);
      }
      return [cells.slice(0, -1), cells[cells.length - 1]];
    }

    /* The other two spaces of every row of three adjacent rings on the bar
       of ``s`` that includes ``s``: where two Darts of one player capture. */
    function capturePairs(s) {
      const ring = RING_OF[s], bar = BAR_OF[s];
      const pairs = [];
      for (let low = Math.max(0, ring - 2); low <= Math.min(ring, RINGS - 3); low++) {
        const others = [];
        for (let r = low; r < low + 3; r++) if (r !== ring) others.push(SPACE_AT[r][bar]);
        pairs.push([others[0], others[1]]);
      }
      return pairs;
    }

    const NEIGHBOURS = [], CAPTURE_PAIRS = [], COLUMN = [], PATHS = [], STEPS = [];
    for (let s = 0; s < NSPACES; s++) {
      NEIGHBOURS.push(neighbours(s));
      CAPTURE_PAIRS.push(capturePairs(s));
      // COLUMN[space]: every space of that space's bar.
      const column = [];
      for (let r = 0; r < RINGS; r++) column.push(SPACE_AT[r][BAR_OF[s]]);
      COLUMN.push(column);
      // PATHS[space][way][die] -> [passed, landing] or null; die index 0 unused.
      const byWay = [];
      for (let way = 0; way < 4; way++) {
        const byDie = [null];
        for (let die = 1; die <= 6; die++) byDie.push(path(s, way, die));
        byWay.push(byDie);
      }
      PATHS.push(byWay);
    }
    // The same paths as move generation walks them: STEPS[space][ring_way][die]
    // lists [way, way's name, passed, landing] for the three ways a Dart
    // pointing ``ring_way`` (0 clockwise, 1 anticlockwise) may go (round its
    // ring, in, out, in that order), leaving out those that leave the board.
    for (let s = 0; s < NSPACES; s++) {
      const byRingWay = [];
      for (const ringWay of [CW, CCW]) {
        const byDie = [[]];
        for (let die = 1; die <= 6; die++) {
          const steps = [];
          for (const way of [ringWay, IN, OUT]) {
            const found = PATHS[s][way][die];
            if (found !== null) steps.push([way, WAY_NAMES[way], found[0], found[1]]);
          }
          byDie.push(steps);
        }
        byRingWay.push(byDie);
      }
      STEPS.push(byRingWay);
    }
    return {BARS, RINGS, NSPACES, RING_OF, BAR_OF, TERR_OF, SPACE_AT, TERRITORY_BARS, SEAT_TERRITORIES,
            DARTS_PER_PLAYER, SETUPS, OWNERS, NEIGHBOURS, CAPTURE_PAIRS, COLUMN, PATHS, STEPS};
  }

  // ------------------------------------------------------------ the state

  /* One position (engine.py RoundaboutState). ``pos[d]`` is the space of
     Dart ``d`` (-1 once removed) and ``dirs[d]`` its direction round the
     ring; ``cell`` and ``own`` are the board seen from the spaces (Dart and
     owner on each space, -1 if empty), kept in step with ``pos``. The
     Python frozenset ``frozen`` is a Set here. ``T`` holds the board tables. */
  class RoundaboutState {
    constructor(T, players, pos, dirs) {
      this.T = T;
      this.players = players;
      this.per = T.DARTS_PER_PLAYER[String(players)];
      this.homes = T.SEAT_TERRITORIES[String(players)].slice();
      this.targets = this.homes.map((t) => (t + 2) % 4);
      this.pos = pos;
      this.dirs = dirs;
      this.cell = [];
      this.own = [];
      for (let s = 0; s < T.NSPACES; s++) {
        this.cell.push(-1);
        this.own.push(-1);
      }
      const owners = T.OWNERS[players];
      for (let dart = 0; dart < pos.length; dart++) {
        const s = pos[dart];
        if (s >= 0) {
          this.cell[s] = dart;
          this.own[s] = owners[dart];
        }
      }
      this.phase = ROLLOFF;
      this.contenders = [];
      for (let seat = 0; seat < players; seat++) this.contenders.push(seat);
      this.turn = 0;
      this.turnPlayer = -1;
      this.mover = -1;
      this.asking = -1;
      this.dice = [];
      this.left = [];
      this.frozen = new Set();
      this.offerAllowed = false;
      this.winner = -1;
      this.endReason = "";
      this.retired = [];
      this.last = [];
      this._legal = null;
    }

    // ----------------------------------------------------------- set-up

    /* GAME.new_state(players, options): Game.new_state's checks, then initial. */
    static initial(T, players, options) {
      const unknown = Object.keys(options || {}).sort();
      if (unknown.length) throw new Error("roundabout has no option '" + unknown[0] + "' (available: none)");
      if (!Object.prototype.hasOwnProperty.call(T.SETUPS, String(players))) {
        throw new Error("roundabout is for 2 to 4 players, not " + players);
      }
      const pos = [], dirs = [];
      for (const seat of T.SETUPS[String(players)]) {
        for (const dart of seat) {
          pos.push(dart.space);
          dirs.push(dart.dir);
        }
      }
      return new RoundaboutState(T, players, pos, dirs);
    }

    // ----------------------------------------------------------- interface

    currentPlayer() {
      if (this.phase === PLAY) return this.mover;
      if (this.phase === OFFER) return this.asking;
      if (this.phase === OVER) return TERMINAL;
      return CHANCE;
    }

    legalActions() {
      if (this._legal === null) {
        if (this.phase === PLAY) this._legal = this._playOptions();
        else if (this.phase === OFFER) this._legal = [{accept: true}, {accept: false}];
        else this._legal = [];
      }
      return this._legal;
    }

    applyChance(values) {
      const phase = this.phase;
      let count;
      if (phase === ROLL) count = 2;
      else if (phase === ROLLOFF) count = this.contenders.length;
      else throw new Error("no chance is due in phase '" + phase + "'");
      if (values.length !== count || !(1 <= Math.min(...values) && Math.max(...values) <= 6)) {
        throw new Error("expected " + count + " dice, got " + compact(values));
      }
      this.last = [];
      this._legal = null;
      if (phase === ROLLOFF) this._rolloff(values.slice());
      else this._roll(values.slice());
      this._settle();
    }

    /* arena.games.base State.apply_action: refuse anything not offered. */
    applyAction(action) {
      checkOffered(this, action);
      this._apply(action);
    }

    _apply(action) {
      this.last = [];
      this._legal = null;
      if (this.phase === OFFER) this._answerOffer(action.accept);
      else this._play(action);
      this._settle();
    }

    // ----------------------------------------------------------- JSON

    toJson() {
      const T = this.T;
      const owners = T.OWNERS[this.players];
      const darts = [];
      for (let dart = 0; dart < this.pos.length; dart++) {
        const space = this.pos[dart], on = space >= 0;
        darts.push({id: dart, owner: owners[dart], space: on ? space : null,
                    ring: on ? T.RING_OF[space] : null, bar: on ? T.BAR_OF[space] : null, dir: this.dirs[dart]});
      }
      const onBoard = [], captured = [];
      for (let seat = 0; seat < this.players; seat++) {
        onBoard.push(this._count(seat));
        captured.push(...this._captured(seat));
      }
      return {
        game: "roundabout",
        players: this.players,
        darts_per_player: this.per,
        homes: this.homes.slice(),
        targets: this.targets.slice(),
        darts: darts,
        on_board: onBoard,
        // Sorted as numbers (JavaScript's default sort compares strings).
        captured: captured.sort((a, b) => a - b),
        phase: this.phase,
        turn: this.turn,
        turn_player: seatOrNull(this.turnPlayer),
        mover: seatOrNull(this.mover),
        asking: seatOrNull(this.asking),
        dice: this.dice.slice(),
        dice_left: this.left.slice(),
        frozen: [...this.frozen].sort((a, b) => a - b),
        offer_allowed: this.offerAllowed,
        contenders: this.contenders.slice(),
        winner: seatOrNull(this.winner),
        end_reason: this.endReason || null,
        retired: this.retired.slice(),
        last: this.last.map((effect) => Object.assign({}, effect)),
      };
    }

    static fromJson(T, data) {
      const pos = data.darts.map((d) => (d.space === null ? -1 : d.space));
      const dirs = data.darts.map((d) => d.dir);
      const state = new RoundaboutState(T, data.players, pos, dirs);
      state.phase = data.phase;
      state.turn = data.turn;
      state.turnPlayer = seatOf(data.turn_player);
      state.mover = seatOf(data.mover);
      state.asking = seatOf(data.asking);
      state.dice = data.dice.slice();
      state.left = data.dice_left.slice();
      state.frozen = new Set(data.frozen);
      state.offerAllowed = data.offer_allowed;
      state.contenders = data.contenders.slice();
      state.winner = seatOf(data.winner);
      state.endReason = data.end_reason || "";
      state.retired = data.retired.slice();
      state.last = data.last.map((effect) => Object.assign({}, effect));
      return state;
    }

    // ----------------------------------------------------------- board queries

    _count(seat) {
      const per = this.per;
      let count = 0;
      for (let d = seat * per; d < (seat + 1) * per; d++) if (this.pos[d] !== -1) count++;  // -1: removed
      return count;
    }

    /* Whether the Dart of ``owner`` on ``s`` is part of a block: another
       Dart of the same player beside it on its ring or on its bar. */
    _isBlock(s, owner) {
      const own = this.own;
      const near = this.T.NEIGHBOURS[s];
      for (let k = 0; k < near.length; k++) if (own[near[k]] === owner) return true;
      return false;
    }

    /* Whether a move of ``seat`` passes over a Dart of another player's
       block (blocks stop every other player, decision 5). */
    _crossesBlock(passed, seat) {
      const own = this.own;
      for (let k = 0; k < passed.length; k++) {
        const q = passed[k], o = own[q];
        if (o >= 0 && o !== seat && this._isBlock(q, o)) return true;
      }
      return false;
    }

    /* The number of ``seat``'s Darts on the bar of space ``s`` (spelt out
       in Python's _is_captured, _captured and _end_ok). */
    _onColumn(s, seat) {
      let count = 0;
      const column = this.T.COLUMN[s];
      for (let r = 0; r < column.length; r++) if (this.own[column[r]] === seat) count++;
      return count;
    }

    /* A Dart is captured when it is its owner's only Dart on its bar and
       it and two Darts of one other player fill three adjacent rings of
       that bar, in any order (decision 6). */
    _isCaptured(dart) {
      const s = this.pos[dart];
      if (s < 0) return false;
      const own = this.own, seat = Math.floor(dart / this.per);
      const pairs = this.T.CAPTURE_PAIRS[s];
      for (let k = 0; k < pairs.length; k++) {
        const other = own[pairs[k][0]];
        if (other >= 0 && other === own[pairs[k][1]] && other !== seat) return this._onColumn(s, seat) === 1;
      }
      return false;
    }

    /* The seat's captured Darts (Python inlines _is_captured here). */
    _captured(seat) {
      const per = this.per;
      const found = [];
      for (let d = seat * per; d < (seat + 1) * per; d++) if (this._isCaptured(d)) found.push(d);
      return found;
    }

    /* Whether the seat has Darts on the board and all are captured. */
    _allCaptured(seat) {
      const onBoard = this._count(seat);
      return onBoard > 0 && this._captured(seat).length === onBoard;
    }

    /* Bars holding one of the mover's frozen Darts: no other Dart of his
       may end the turn there (decision 7). */
    _closedBars() {
      const bars = new Set();
      for (const d of this.frozen) if (this.pos[d] >= 0) bars.add(this.T.BAR_OF[this.pos[d]]);
      return bars;
    }

    /* Whether the turn may end in this position: each frozen Dart still
       on the board is still its owner's only Dart on its bar. */
    _endOk() {
      if (!this.frozen.size) return true;
      for (const d of this.frozen) {
        const s = this.pos[d];
        if (s >= 0 && this._onColumn(s, this.mover) !== 1) return false;
      }
      return true;
    }

    // ----------------------------------------------------------- move generation

    /* The die moves open to the mover as actions, in Dart, die, way order,
       and whether one of them jumps no block (then a die must be played):
       [found, mandatory]. Even doubles may jump blocks (decision 10); moves
       that would leave a Dart illegally on a closed bar are left out
       (decision 7). ``anyOne``: stop at the first move. */
    _moves(anyOne) {
      const T = this.T;
      const m = this.mover, per = this.per, own = this.own, pos = this.pos, dirs = this.dirs;
      const frozen = this.frozen, left = this.left;
      let values;  // the die values left, each once, in order
      if (left.length === 2 && left[0] !== left[1]) values = left[0] < left[1] ? [left[0], left[1]] : [left[1], left[0]];
      else values = left.length ? [left[0]] : [];
      const dice = this.dice;
      const jumping = dice[0] === dice[1] && dice[0] % 2 === 0;
      const closed = frozen.size ? this._closedBars() : NO_BARS;
      // Only a move that stops on a closed bar, or one made while another
      // Dart has stopped on one, needs the full look-ahead.
      const settled = !closed.size || this._endOk();
      const found = [];
      let mandatory = false;
      for (let d = m * per; d < (m + 1) * per; d++) {
        const c = pos[d];
        if (c < 0 || frozen.has(d)) continue;
        const byDie = T.STEPS[c][dirs[d] > 0 ? 0 : 1];
        for (let i = 0; i < values.length; i++) {
          const v = values[i], steps = byDie[v];
          for (let k = 0; k < steps.length; k++) {
            const way = steps[k][0], name = steps[k][1], passed = steps[k][2], dest = steps[k][3];
            if (own[dest] >= 0) continue;
            const jump = this._crossesBlock(passed, m);  // inlined in Python
            if (jump && !jumping) continue;
            if (closed.size && (!settled || closed.has(T.BAR_OF[dest])) && !this._closedMoveOk(d, v, way)) continue;
            found.push({dart: d, die: v, way: name});
            if (!jump) mandatory = true;
            if (anyOne) return [found, mandatory];
          }
        }
      }
      return [found, mandatory];
    }

    /* With a frozen Dart on the board, a move is allowed if the turn could
       end legally after it: at once, or after a second die that takes the
       Dart that stopped on a closed bar away again. */
    _closedMoveOk(dart, die, way) {
      // A copy of what _move changes is enough: the rest is shared, unchanged.
      // (Python copies the state's __dict__; a state made by the constructor
      // keeps every state object of one shape, which JavaScript engines run
      // faster. The constructor makes cell and own again from pos.)
      const trial = new RoundaboutState(this.T, this.players, this.pos.slice(), this.dirs);
      Object.assign(trial, this, {pos: trial.pos, cell: trial.cell, own: trial.own, left: this.left.slice(), last: []});
      trial._move(dart, die, way);
      if (trial.phase === OVER || trial._endOk()) return true;
      return trial.left.length > 0 && trial._moves(true)[0].length > 0;
    }

    /* Everything the mover may do now (decisions 2, 9, 10, 13). */
    _playOptions() {
      const [options, mandatory] = this._moves(false);
      const fresh = this.left.length === 2;
      if (fresh && this.dice[0] === this.dice[1] && this.dice[0] % 2 === 1) options.push(...this._reversals());
      if (fresh && this.offerAllowed) for (const seat of this._opponents()) options.push({offer: seat});
      if (options.length && !mandatory && this._endOk()) options.push({pass: true});
      return options;
    }

    /* The roller's opponents in turn order from the seat after him: the
       seats he may offer his roll to (decision 13). */
    _opponents() {
      const seats = [];
      for (let k = 1; k < this.players; k++) {
        const seat = (this.turnPlayer + k) % this.players;
        if (!this.retired.includes(seat)) seats.push(seat);
      }
      return seats;
    }

    /* Odd doubles: reverse one or two Darts that are neither captured nor
       in their owner's home territory (decision 9). */
    _reversals() {
      const m = this.mover, per = this.per, home = this.homes[this.mover];
      const able = [];
      for (let d = m * per; d < (m + 1) * per; d++) {
        if (this.pos[d] >= 0 && !this.frozen.has(d) && this.T.TERR_OF[this.pos[d]] !== home) able.push(d);
      }
      const options = [];
      able.forEach((a, i) => {
        options.push({reverse: [a]});
        for (const b of able.slice(i + 1)) options.push({reverse: [a, b]});
      });
      return options;
    }

    // ----------------------------------------------------------- applying

    _play(action) {
      if ("dart" in action) {
        const dart = action.dart, named = action.way;
        const way = named === "ring" ? (this.dirs[dart] > 0 ? CW : CCW) : WAY_OF[named];
        this.offerAllowed = false;
        this._move(dart, action.die, way);
        if (this.phase === PLAY && !this.left.length) this._endRoll(true);
      } else if ("reverse" in action) {
        for (const dart of action.reverse) {
          this.dirs[dart] = -this.dirs[dart];
          this.last.push({cause: "reverse", seat: this.mover, dart: dart, dir: this.dirs[dart]});
        }
        this._endRoll(true);
      } else if ("offer" in action) {
        this.offerAllowed = false;
        this.last.push({cause: "offer", seat: this.mover, to: action.offer, dice: this.dice.slice()});
        this.phase = OFFER;
        this.asking = action.offer;
      } else {
        this.last.push({cause: "pass", seat: this.mover, dice_left: this.left.slice()});
        this._endRoll(this.left.length < 2);
      }
    }

    /* Move one Dart one die; bear it off or complete a ringer. */
    _move(dart, die, way) {
      const T = this.T;
      const m = this.mover, own = this.own, cell = this.cell;
      const start = this.pos[dart];
      const [passed, dest] = T.PATHS[start][way][die];
      const effect = {cause: "move", seat: m, dart: dart, die: die, way: WAY_NAMES[way],
                      from: start, to: dest, path: [start, ...passed, dest],
                      jump: this._crossesBlock(passed, m)};
      this.last.push(effect);
      this.left.splice(this.left.indexOf(die), 1);  // list.remove: the first one
      cell[start] = -1;
      own[start] = -1;
      const home = this.homes[m];
      if (T.TERR_OF[start] !== home && T.TERR_OF[dest] === home) {
        this.pos[dart] = -1;
        this.last.push({cause: "bear_off", seat: m, dart: dart, space: dest});
      } else {
        this.pos[dart] = dest;
        cell[dest] = dart;
        own[dest] = m;
        if (!this._ringer(dest)) return;
      }
      if (Math.max(...this.pos.slice(m * this.per, (m + 1) * this.per)) < 0) {  // none left on the board
        this.phase = OVER;
        this.winner = m;
        this.endReason = "won";
        this.last.push({cause: "win", seat: m});
      }
    }

    /* Remove a ringer completed by landing on ``s`` (decision 11); say
       whether there was one. */
    _ringer(s) {
      const T = this.T;
      const m = this.mover;
      if (T.TERR_OF[s] !== this.targets[m]) return false;
      const ring = T.RING_OF[s], bar = T.BAR_OF[s];
      const bars = T.TERRITORY_BARS[T.TERR_OF[s]];
      const own = this.own;
      let run;
      if (this.players === 2) {
        const row = ring * T.BARS;
        for (const b of bars) if (own[row + b] !== m) return false;
        run = bars.slice();
      } else {
        let low = bar, high = bar;
        while (bars.includes(low - 1) && own[ring * T.BARS + low - 1] === m) low -= 1;
        while (bars.includes(high + 1) && own[ring * T.BARS + high + 1] === m) high += 1;
        run = [];
        if (high - low >= 2) for (let b = low; b <= high; b++) run.push(b);
      }
      if (!run.length) return false;
      const spaces = run.map((b) => ring * T.BARS + b);
      const darts = spaces.map((q) => this.cell[q]);
      spaces.forEach((q, k) => {
        this.cell[q] = -1;
        own[q] = -1;
        this.pos[darts[k]] = -1;
      });
      this.last.push({cause: "ringer", seat: m, darts: darts, spaces: spaces});
      return true;
    }

    /* The one opponent offered the roll takes it, or declines it and the
       roller must play it himself (decision 13). */
    _answerOffer(accept) {
      const seat = this.asking;
      this.last.push({cause: accept ? "accept" : "decline", seat: seat});
      if (accept) this._beginPlay(seat);
      else this._rollerPlaysOn();
    }

    /* A declined offer: the roller plays his roll after all, with the Darts
       frozen that were frozen when he began to play it (decisions 7, 23). */
    _rollerPlaysOn() {
      this.phase = PLAY;
      this.mover = this.turnPlayer;
      this.asking = -1;
    }

    // ----------------------------------------------------------- retiring

    /* The seat's Darts leave the board and it loses every turn from now on
       (decisions 21-24). */
    retire(seat) {
      this._checkRetire(seat);
      this.last = [];
      this._legal = null;
      this.retired.push(seat);
      const darts = [];
      for (let d = seat * this.per; d < (seat + 1) * this.per; d++) if (this.pos[d] >= 0) darts.push(d);
      for (const d of darts) {
        this.cell[this.pos[d]] = -1;
        this.own[this.pos[d]] = -1;
        this.pos[d] = -1;
      }
      this.last.push({cause: "retire", seat: seat, darts: darts});
      const active = [];
      for (let s = 0; s < this.players; s++) if (!this.retired.includes(s)) active.push(s);
      if (active.length === 1) {
        this.phase = OVER;
        this.winner = active[0];
        this.endReason = "won";
        this.dice = [];
        this.left = [];
        this.frozen = new Set();
        this.mover = this.asking = -1;
        this.offerAllowed = false;
        this.last.push({cause: "win", seat: this.winner});
        return;
      }
      if (this.phase === ROLLOFF) {
        if (this.contenders.includes(seat)) {
          this.contenders.splice(this.contenders.indexOf(seat), 1);
          if (this.contenders.length === 1) this._startTurn(this.contenders.pop());
        }
        return;
      }
      if (this.phase === OFFER && this.asking === seat) {
        this.last.push({cause: "decline", seat: seat});
        this._rollerPlaysOn();
      } else if (this.turnPlayer === seat && (this.phase === ROLL || this.phase === OFFER) ||
                 this.phase === PLAY && this.mover === seat) {
        // Its roll, or a roll it accepted, is lost; the rotation goes on after the roller.
        this._startTurn((this.turnPlayer + 1) % this.players);
      }
      this._settle();
    }

    /* arena.games.base State._check_retire: refuse a retirement that cannot happen. */
    _checkRetire(seat) {
      if (this.currentPlayer() === TERMINAL) throw new Error("the game is over: seat " + seat + " cannot retire");
      if (!Number.isInteger(seat) || !(seat >= 0 && seat < this.players)) {
        throw new Error("no seat " + compact(seat) + " in a game of " + this.players);
      }
      if (this.retired.includes(seat)) throw new Error("seat " + seat + " has already retired");
    }

    // ----------------------------------------------------------- turn flow

    _rolloff(values) {
      this.last.push({cause: "rolloff", rolls: this.contenders.map((seat, k) => [seat, values[k]])});
      const best = Math.max(...values);
      const tied = this.contenders.filter((seat, k) => values[k] === best);
      if (tied.length === 1) {
        this.contenders = [];
        this._startTurn(tied[0]);
      } else {
        this.contenders = tied;
      }
    }

    _roll(values) {
      this.dice = values;
      this.left = values.slice();
      this.last.push({cause: "roll", seat: this.turnPlayer, dice: values.slice()});
      this.offerAllowed = this.players >= 3;
      this._beginPlay(this.turnPlayer);
    }

    /* ``seat`` now plays the roll; his Darts captured now stay frozen for
       the whole roll (decision 7). */
    _beginPlay(seat) {
      this.phase = PLAY;
      this.mover = seat;
      this.asking = -1;
      this.frozen = new Set(this._captured(seat));
    }

    /* Play out whatever holds no choice (decision 3): a roll with no move
       left ends, a single forced move is made. */
    _settle() {
      while (this.phase === PLAY) {
        const options = this._playOptions();
        if (!options.length) {
          this._endRoll(this.left.length < 2);
        } else if (options.length === 1) {
          this._play(options[0]);
        } else {
          this._legal = options;
          return;
        }
      }
      this._legal = null;
    }

    _endRoll(acted) {
      if (!acted && this._stalled()) {
        this._stop("stalemate");
        return;
      }
      this._startTurn((this.turnPlayer + 1) % this.players);
    }

    /* Begin ``seat``'s turn; a seat whose Darts are all captured loses it
       without rolling (decision 8). */
    _startTurn(seat) {
      this.dice = [];
      this.left = [];
      this.frozen = new Set();
      this.mover = this.asking = -1;
      this.offerAllowed = false;
      for (;;) {
        if (this.retired.includes(seat)) {
          seat = (seat + 1) % this.players;
          continue;
        }
        this.turn += 1;
        if (this.turn > TURN_CAP) {
          this._stop("turn_cap");
          return;
        }
        this.turnPlayer = seat;
        if (!this._allCaptured(seat)) {
          this.phase = ROLL;
          return;
        }
        this.last.push({cause: "skip", seat: seat, reason: "all darts captured"});
        if (this._stalled()) {
          this._stop("stalemate");
          return;
        }
        seat = (seat + 1) % this.players;
      }
    }

    _stop(reason) {
      this.phase = OVER;
      this.endReason = reason;
      this.turn = Math.min(this.turn, TURN_CAP);
      this.dice = [];
      this.left = [];
      this.frozen = new Set();
      this.mover = this.asking = -1;
      this.offerAllowed = false;
      this.last.push({cause: "end", reason: reason});
    }

    /* Whether no seat could ever act again, whatever the dice (decision
       15): no uncaptured Dart may be reversed (it is in its home) and none
       has any move of any die value, jumping or not. */
    _stalled() {
      const T = this.T;
      const own = this.own;
      for (let seat = 0; seat < this.players; seat++) {
        const per = this.per, home = this.homes[seat];
        for (let d = seat * per; d < (seat + 1) * per; d++) {
          const c = this.pos[d];
          if (c < 0 || this._isCaptured(d)) continue;
          if (T.TERR_OF[c] !== home) return false;
          const ringWay = this.dirs[d] > 0 ? CW : CCW;
          for (const way of [ringWay, IN, OUT]) {
            for (let v = 1; v <= 6; v++) {
              const path = T.PATHS[c][way][v];
              if (path === null || own[path[1]] >= 0) continue;
              if (v % 2 === 0 || !this._crossesBlock(path[0], seat)) return false;
            }
          }
        }
      }
      return true;
    }
  }

  function seatOrNull(seat) {
    return seat >= 0 ? seat : null;
  }

  function seatOf(value) {
    return value === null ? -1 : value;
  }

  /* The state after ``event``, as arena/games/events.py ``replay`` applies
     it. Python's replay keeps one state and its legal actions from event to
     event; this one rebuilds the state from its JSON, so a decision finds
     its legal actions again (to refuse one not offered, as IllegalAction). */
  function apply(json, event, board) {
    const state = RoundaboutState.fromJson(tablesOf(board), json);
    applyEvent(state, event);
    return state.toJson();
  }

  /* The actions offered to the seat to decide in the state ``json``, in
     order: state.legal_actions(), what the referee offers (the list apply
     checks a decision against). A new list of new objects: the page may
     keep it, and the state is made again from its JSON. */
  function legalActions(json, board) {
    return RoundaboutState.fromJson(tablesOf(board), json).legalActions();
  }

  // ------------------------------------------------------------ the words
  // text_view.py. A lookup Python would fail with KeyError or IndexError
  // throws a TypeError here (need, item), so that the frame shows the
  // action or effect as JSON, as the Python frame does.

  // Without a prototype, so that only these three keys are found in it, as in the Python dict.
  const WAYS = Object.assign(Object.create(null),
                             {ring: "round its ring", in: "inward (toward ring 0)", out: "outward (toward ring 4)"});

  /* mapping[key], failing as Python's KeyError would (a JSON value is never
     undefined: undefined is a missing key). */
  function need(mapping, key) {
    const value = mapping[key];
    if (value === undefined) throw new TypeError("no key " + key);
    return value;
  }

  /* list[index] with Python's indexing: a negative index counts from the
     end, one out of range fails as IndexError would. */
  function item(list, index) {
    if (!Number.isInteger(index)) throw new TypeError("not a list index: " + index);
    const value = list[index < 0 ? list.length + index : index];
    if (value === undefined) throw new TypeError("list index out of range: " + index);
    return value;
  }

  /* A space by its ring and bar, as the board drawing numbers them: "ring 2
     bar 7" (Python's // and % floor, as Math.floor and pyMod do). */
  function at(view, space) {
    if (typeof space !== "number") throw new TypeError("not a space: " + space);
    const bars = view.board.bars;
    return "ring " + Math.floor(space / bars) + " bar " + pyMod(space, bars);
  }

  class RoundaboutView extends engines.TextView {
    constructor(board, names, you) {
      super(board, names, you);
      this.engineMoves = new Set(["move", "bear_off"]);
    }

    describeAction(action, state) {
      if ("dart" in action) {
        const dart = item(need(state, "darts"), need(action, "dart"));
        let way = need(WAYS, need(action, "way"));
        if (action.way === "ring") way += need(dart, "dir") === 1 ? " (clockwise)" : " (anticlockwise)";
        return "move the dart on " + at(this, need(dart, "space")) + " by " + need(action, "die") + " " + way;
      }
      if ("reverse" in action) {
        const reverse = need(action, "reverse");
        const where = reverse.map((dart) => at(this, need(item(state.darts, dart), "space"))).join(" and ");
        return "turn the dart" + (reverse.length > 1 ? "s" : "") + " on " + where +
          " round instead of moving (ends the roll)";
      }
      if ("offer" in action) return "offer the roll to " + this.seat(action.offer);
      if ("accept" in action) return action.accept ? "take the offered roll" : "decline the offered roll";
      if (action.pass) return "end the roll without moving";
      return compact(action);
    }

    describeEffect(effect, state) {
      const cause = need(effect, "cause");
      const seat = effect.seat === undefined ? null : effect.seat;  // effect.get("seat")
      if (cause === "rolloff") {
        return "roll-off: " + need(effect, "rolls").map(([who, value]) => this.seat(who) + " " + value).join(", ");
      }
      if (cause === "roll") return this.says(seat, "rolls") + " " + need(effect, "dice").join(" and ");
      if (cause === "move") {
        const jump = effect.jump ? " jumping a block" : "";
        const named = need(effect, "way");
        const way = (named in WAYS ? WAYS[named] : String(named)).split(" (")[0];
        return this.says(seat, "moves") + " a dart " + need(effect, "die") + " " + way + " from " +
          at(this, need(effect, "from")) + " to " + at(this, need(effect, "to")) + jump;
      }
      if (cause === "bear_off") {
        return this.whose(seat) + " dart comes home on " + at(this, need(effect, "space")) + " and leaves the board";
      }
      if (cause === "ringer") {
        const where = need(effect, "spaces").map((space) => at(this, space)).join(", ");
        return this.says(seat, "makes") + " a ringer: the darts on " + where + " leave the board";
      }
      if (cause === "reverse") {
        return this.says(seat, "turns") + " the dart on " +
          at(this, need(item(need(state, "darts"), need(effect, "dart")), "space")) + " round";
      }
      if (cause === "offer") {
        return this.says(seat, "offers") + " the roll " + need(effect, "dice").join(" and ") + " to " +
          this.seat(need(effect, "to"));
      }
      if (cause === "accept" || cause === "decline") return this.says(seat, cause + "s") + " the offered roll";
      if (cause === "pass") return this.says(seat, "ends") + " the roll without moving";
      if (cause === "skip") return this.says(seat, "misses") + " the turn (" + need(effect, "reason") + ")";
      if (cause === "win") return this.says(seat, "wins");
      if (cause === "end") return "the game ends (" + need(effect, "reason").replace(/_/g, " ") + ")";
      if (cause === "retire") return this.says(seat, "is") + " out of the game";
      return compact(effect);
    }
  }

  engines.roundabout = {
    initial: (players, options, board) => RoundaboutState.initial(tablesOf(board), players, options).toJson(),
    apply: apply,
    legalActions: legalActions,
    View: RoundaboutView,
  };
})(typeof window !== "undefined" ? window : globalThis);
