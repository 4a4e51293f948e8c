/* Detour's replay engine for the browser (the contract: arena/games/text_view.js):
   arena/games/detour/engine.py's DetourState and arena/games/detour/text_view.py's
   DetourTextView made again in JavaScript, so that a replay page rebuilds every
   state and every step's words from the events alone.

   Read it beside the Python: the same names in camelCase, the same order,
   the same decision numbers (seeds/detour.md). A state is held as the
   Python state holds it (pieces as [space, port], the queue as [piece, die]
   pairs) between DetourState.fromJson and toJson, so each step is the
   Python method's lines. The lookup tables the Python engine builds at
   import from BOARD are built here from the ``board`` argument (the same
   data, Game.board), once per board object. */
(function () {
  "use strict";
  const TextView = ArenaEngines.TextView;
  const {compact, pyItem, pyMod, applyEvent, checkOffered, perBoard} = ArenaEngines.util;

  const TURN_CAP = 2000;   // colour-turns, engine.py's TURN_CAP (the state carries it as turn_cap)
  const SIX = 6;
  // A piece off the board is [FINISHED, FINISHED] once it has finished, and
  // [RETIRED, RETIRED] when its seat retired with it still on the board.
  const FINISHED = -1, RETIRED = -2;
  // Phases: ROLL and POPOFF are chance, OVER is terminal, the rest are decisions.
  const ROLL = "roll", CHOOSE = "choose", DIRECTION = "direction", WHEEL = "wheel", POPOFF = "popoff",
    POPOFF_START = "popoff_start", OWN_START = "own_start", OVER = "over";
  // Quarter turns each way, and a half turn (decision 6); in Python's dict order.
  const TURNS = {cw: 1, ccw: -1, half: 2};
  const CHANCE = -1, TERMINAL = -2;   // arena.games.base: current_player() of a chance step, of a game over

  // ---------------------------------------------------------------- lookup tables
  // engine.py's module constants, read from the board data; cached per board object.

  const tables = perBoard(buildTables);

  function buildTables(board) {
    const spaces = board.spaces;
    /* The port a piece leaves by after entering ``space`` through ``port`` (engine.py _through). */
    const through = (space, port) => spaces[space].ports.length === 4 ? (port + 2) % 4 : 1 - port;
    const arrive = (link) => [link.space, through(link.space, link.port)];
    return {
      kind: spaces.map((space) => space.kind),
      centre: board.centre,
      hubs: board.wheels.map((wheel) => wheel.hub),
      stars: new Set(spaces.filter((s) => s.kind === "star" || s.kind === "hub" || s.kind === "centre").map((s) => s.id)),
      finishes: new Set(board.finishes),
      startSpaces: board.starts.map((start) => start.space),
      startArrows: board.starts.map((start) => start.arrow),
      wheelOrder: board.wheels.map((wheel, index) => index),
      // rimArrival[w][r]: [space, exit port] on reaching the board space at rim r of wheel w.
      rimArrival: board.wheels.map((wheel) => wheel.rims.map(arrive)),
      hubEnds: new Set(board.hub_ends),
      // links[s][p] = [0, space, exit] fixed path, [1, wheel, rim] into a wheel's rim,
      // [2, wheel, end] out of a hub along its track end.
      links: spaces.map((space) => space.ports.map((link) =>
        "space" in link ? [0, ...arrive(link)]
          : "rim" in link ? [1, link.wheel, link.rim]
            : [2, link.wheel, link.end])),
    };
  }

  /* One space forward from ``space`` out of ``port`` with the wheels at
     ``wheels``: [the next space, the port the piece will leave that one by]. */
  function step(t, space, port, wheels) {
    // Indexing, not destructuring, in step, walk and toJson: a page replays
    // a game once, mostly before the JIT has optimised anything, and
    // unoptimised destructuring (the iterator protocol) made a cold replay
    // a third slower.
    const link = t.links[space][port], kind = link[0], a = link[1], b = link[2];
    if (kind === 0) return [a, b];
    const turned = wheels[a];
    if (kind === 2) return t.rimArrival[a][pyMod(b + turned, 4)];
    const end = pyMod(b - turned, 4);
    if (t.hubEnds.has(end)) return [t.hubs[a], 1 - end];
    const other = end ^ 1;        // the arc joins track ends 2 and 3
    return t.rimArrival[a][pyMod(other + turned, 4)];
  }

  /* The spaces entered by ``count`` steps (the path) and the final exit port. */
  function walk(t, space, port, count, wheels) {
    // Python's range(count) refuses a count that is not an integer (TypeError).
    if (!Number.isInteger(count)) throw new Error("a move of " + compact(count) + " spaces");
    const path = [];
    for (let k = 0; k < count; k++) {
      const next = step(t, space, port, wheels);
      space = next[0];
      port = next[1];
      path.push(space);
    }
    return [path, port];
  }

  /* The seat a piece belongs to: piece i is of colour i // 2, colour c is
     seat c % players (the rules document's set-up); pieces are never negative. */
  function pieceOwner(piece, players) {
    return Math.floor(piece / 2) % players;
  }

  function copyPopoff(popoff) {
    return {...popoff, pops: popoff.pops.map((pop) => [...pop])};
  }

  /* engine.py's DetourState: one position, ``pieces[i]`` is [space, port]. */
  class DetourState {
    constructor(t, players, colours, pieces, wheels, colour, phase, dice, queue, popoff, own, turns, winner,
      ending, last, retired) {
      this.t = t;
      this.players = players;
      this.colours = colours;
      this.pieces = pieces;
      this.wheels = wheels;
      this.colour = colour;
      this.phase = phase;
      this.dice = dice;
      this.queue = queue;
      this.popoff = popoff;
      this.own = own;
      this.turns = turns;
      this.winner = winner;
      this.ending = ending;
      this.last = last;
      this.retired = retired;
    }

    // ----------------------------------------------------------- set-up

    /* Game.new_state's checks, then DetourState.initial. */
    static initial(t, board, numPlayers, options) {
      if (!(Number.isInteger(numPlayers) && numPlayers >= 2 && numPlayers <= 4)) {
        throw new Error("detour is for 2 to 4 players, not " + numPlayers);
      }
      const unknown = Object.keys(options || {}).filter((key) => key !== "pieces").sort();
      if (unknown.length) throw new Error("detour has no option " + compact(unknown[0]) + " (available: pieces)");
      const perPlayer = options && "pieces" in options ? options.pieces : 2;
      // Python's type(x) is int: neither a bool nor a float (JSON's 4.0 is 4 in JS, an int).
      if (!(perPlayer === 2 || perPlayer === 4)) throw new Error("pieces must be 2 or 4, got " + compact(perPlayer));
      if (perPlayer === 4 && numPlayers !== 2) {
        throw new Error("four pieces each is a two-player option, not for " + numPlayers);
      }
      const colours = numPlayers * perPlayer / 2;   // Python's //: exact, perPlayer is even
      const pieces = [];
      for (let i = 0; i < 2 * colours; i++) pieces.push([t.startSpaces[i % 2], t.startArrows[i % 2]]);
      return new DetourState(t, numPlayers, colours, pieces, [...board.start_orientations], 0, ROLL,
        [], [], null, null, 0, null, null, [], []);
    }

    // -------------------------------------------------------- interface

    currentPlayer() {
      const phase = this.phase;
      if (phase === ROLL || phase === POPOFF) return CHANCE;
      if (phase === OVER) return TERMINAL;
      if (phase === POPOFF_START) return this.owner(this.popoff.loser);
      return this.colour % this.players;
    }

    legalActions() {
      const phase = this.phase;
      if (phase === CHOOSE) {
        // sorted(set(self.dice)): the dice are numbers, so sort them as numbers.
        const dice = [...new Set(this.dice)].sort((a, b) => a - b);
        const actions = [];
        for (const piece of this.livePieces(this.colour)) for (const die of dice) actions.push({piece: piece, die: die});
        return actions;
      }
      if (phase === DIRECTION) return [0, 1, 2, 3].map((port) => ({toward: this.t.links[this.t.centre][port][1]}));
      if (phase === WHEEL) {
        const actions = [];
        for (const wheel of this.t.wheelOrder) for (const turn of Object.keys(TURNS)) actions.push({wheel: wheel, turn: turn});
        return actions;
      }
      if (phase === POPOFF_START || phase === OWN_START) return this.t.startSpaces.map((space, index) => ({start: index}));
      return [];
    }

    /* base.State.apply_action: refuse anything that was not offered. */
    applyAction(action) {
      checkOffered(this, action);
      this.apply(action);
    }

    // ------------------------------------------------------- helpers

    owner(piece) {
      return pieceOwner(piece, this.players);
    }

    livePieces(colour) {
      const first = 2 * colour, pieces = this.pieces;
      if (pieces[first][0] >= 0) return pieces[first + 1][0] >= 0 ? [first, first + 1] : [first];
      return pieces[first + 1][0] >= 0 ? [first + 1] : [];
    }

    /* The piece other than ``besides`` standing on ``space`` (never a START). */
    occupant(space, besides) {
      for (let piece = 0; piece < this.pieces.length; piece++) {
        if (this.pieces[piece][0] === space && piece !== besides) return piece;
      }
      return null;
    }

    // ------------------------------------------------------- chance

    applyChance(values) {
      this.last = [];
      if (this.phase === ROLL) this.roll([...values]);
      else if (this.phase === POPOFF) this.pop(pyItem(values, 0), pyItem(values, 1));
      else throw new Error("no chance is due in phase " + compact(this.phase));
    }

    roll(dice) {
      this.dice = dice;
      this.last.push({cause: "roll", colour: this.colour, seat: this.colour % this.players, dice: [...dice]});
      const live = this.livePieces(this.colour);
      if (live.length === 2) {
        this.phase = CHOOSE;
      } else {
        this.queue = [[live[0], pyItem(dice, 0)]];
        this.nextMove();
      }
    }

    /* One round of the pop-off: both pop until exactly one pops a 6 (decision 9). */
    pop(moverPop, defenderPop) {
      const popoff = this.popoff;
      popoff.pops.push([moverPop, defenderPop]);
      let won = null;
      if (moverPop === SIX && defenderPop !== SIX) won = popoff.mover;
      else if (defenderPop === SIX && moverPop !== SIX) won = popoff.defender;
      this.last.push({cause: "popoff", pops: [moverPop, defenderPop], mover: popoff.mover,
        defender: popoff.defender, winner: won});
      if (won !== null) {
        popoff.loser = won === popoff.mover ? popoff.defender : popoff.mover;
        this.phase = POPOFF_START;
      }
    }

    // ------------------------------------------------------- decisions

    apply(action) {
      this.last = [];
      const phase = this.phase;
      if (phase === CHOOSE) {
        this.choose(action.piece, action.die);
      } else if (phase === DIRECTION) {
        this.direct(action.toward);
      } else if (phase === WHEEL) {
        this.turnWheel(action.wheel, action.turn);
        this.nextMove();
      } else if (phase === POPOFF_START) {
        this.popoffBack(action.start);
      } else if (phase === OWN_START) {
        const [mover, other] = this.own;
        this.own = null;
        this.sendBothBack(mover, other, action.start);
      } else {
        throw new Error("no decision is due in phase " + compact(phase));
      }
    }

    /* Which piece moves first, and with which die; the other piece takes
       the other die (decision 4). */
    choose(piece, die) {
      const otherPiece = this.livePieces(this.colour).find((p) => p !== piece);
      const dice = [...this.dice];
      dice.splice(dice.indexOf(die), 1);   // list.remove: the first one
      this.queue = [[piece, die], [otherPiece, dice[0]]];
      this.nextMove();
    }

    /* A piece that starts its move on the centre Star Space leaves by any of
       its four paths (decision 7). */
    direct(toward) {
      const piece = this.queue[0][0];
      const port = [0, 1, 2, 3].find((p) => this.t.links[this.t.centre][p][1] === toward);
      this.pieces[piece][1] = port;
      this.move();
    }

    nextMove() {
      if (!this.queue.length) {
        this.endTurn();
        return;
      }
      const piece = this.queue[0][0];
      if (this.pieces[piece][0] === this.t.centre) this.phase = DIRECTION;
      else this.move();
    }

    move() {
      const [piece, die] = this.queue.shift();
      const [start, startPort] = this.pieces[piece];
      const [path, port] = walk(this.t, start, startPort, die, this.wheels);
      const land = path[path.length - 1];
      this.pieces[piece] = [land, port];
      this.last.push({cause: "move", piece: piece, die: die, from: start, to: land, path: [start, ...path]});
      this.land(piece, land);
    }

    /* What exact landing on ``land`` does. */
    land(piece, land) {
      const t = this.t;
      if (t.finishes.has(land)) {
        this.pieces[piece] = [FINISHED, FINISHED];
        this.last.push({cause: "finish", piece: piece, space: land});
        const owner = this.owner(piece);
        if (this.pieces.every((place, p) => this.owner(p) !== owner || place[0] < 0)) {
          this.finishGame(owner);
          return;
        }
        this.nextMove();
        return;
      }
      if (t.kind[land] === "start") {
        this.nextMove();
        return;
      }
      const other = this.occupant(land, piece);
      if (other !== null && this.owner(other) === this.owner(piece)) {
        this.queue = [];
        if (Math.floor(other / 2) === Math.floor(piece / 2)) {
          // Same colour: the two are interchangeable (decision 11).
          this.sendBothBack(Math.min(piece, other), Math.max(piece, other), 0);
        } else {
          this.own = [piece, other];
          this.phase = OWN_START;
        }
        return;
      }
      if (other !== null) {
        this.popoff = {mover: piece, defender: other, space: land, pops: [], loser: null};
        this.phase = POPOFF;
        return;
      }
      if (t.stars.has(land)) {
        this.phase = WHEEL;
        return;
      }
      this.nextMove();
    }

    popoffBack(index) {
      const popoff = this.popoff;
      this.popoff = null;
      const loser = popoff.loser;
      this.sendBack(loser, index, "popoff");
      if (loser !== popoff.mover && this.t.stars.has(popoff.space)) this.phase = WHEEL;  // the mover won and stands on a star
      else this.nextMove();
    }

    /* Landing on one's own piece: both go back, one to each START, and the
       turn is over (decision 11). */
    sendBothBack(mover, other, index) {
      this.sendBack(mover, index, "own");
      this.sendBack(other, 1 - index, "own");
      this.queue = [];
      this.endTurn();
    }

    sendBack(piece, index, reason) {
      const space = this.pieces[piece][0];
      this.pieces[piece] = [this.t.startSpaces[index], this.t.startArrows[index]];
      this.last.push({cause: "sent_back", piece: piece, from: space, to: this.t.startSpaces[index], start: index,
        reason: reason});
    }

    /* A quarter turn either way or a half turn; a piece in the hub holder
       turns with it (decision 6). */
    turnWheel(wheel, turn) {
      this.wheels[wheel] = pyMod(this.wheels[wheel] + TURNS[turn], 4);
      const carried = [];
      this.pieces.forEach((place, p) => { if (place[0] === this.t.hubs[wheel]) carried.push(p); });
      this.last.push({cause: "wheel", wheel: wheel, turn: turn, orientation: this.wheels[wheel], carried: carried});
    }

    endTurn() {
      this.turns += 1;
      if (this.turns >= TURN_CAP) {
        this.dice = [];
        this.phase = OVER;
        this.ending = "turn_cap";
        this.last.push({cause: "turn_cap", turns: this.turns});
        return;
      }
      this.passTurn();
    }

    finishGame(seat) {
      this.phase = OVER;
      this.winner = seat;
      this.ending = "normal";
      this.queue = [];
      this.dice = [];
      this.last.push({cause: "win", seat: seat});
    }

    // ------------------------------------------------------- retiring

    /* base.State._check_retire: refuse a retirement that cannot happen. */
    checkRetire(seat) {
      if (this.currentPlayer() === TERMINAL) throw new Error("the game is over: seat " + compact(seat) + " cannot retire");
      if (!Number.isInteger(seat) || seat < 0 || seat >= this.players) {
        throw new Error("no seat " + compact(seat) + " in a game of " + this.players);
      }
      if (this.retired.includes(seat)) throw new Error("seat " + seat + " has already retired");
      // (Its refusal of a solo game's only seat cannot arise: Detour is for 2 to 4.)
    }

    /* The seat's pieces leave the board and its colours lose their turns
       (decisions 22-25). */
    retire(seat) {
      this.checkRetire(seat);
      this.last = [];
      this.retired.push(seat);
      const pieces = [];
      this.pieces.forEach((place, p) => { if (this.owner(p) === seat && place[0] >= 0) pieces.push(p); });
      for (const piece of pieces) this.pieces[piece] = [RETIRED, RETIRED];
      this.last.push({cause: "retire", seat: seat, pieces: pieces});
      const active = [];
      for (let s = 0; s < this.players; s++) if (!this.retired.includes(s)) active.push(s);
      if (active.length === 1) {
        this.finishGame(active[0]);
        return;
      }
      if (this.colour % this.players === seat) {
        this.queue = [];     // its turn ends; a pop-off of its piece is called off
        this.popoff = null;
        this.own = null;
        this.passTurn();
      } else if (this.popoff !== null && this.owner(this.popoff.defender) === seat) {
        // A pop-off against its piece is called off: the mover stays, as if
        // it had won, and turns a wheel on a star (decision 23).
        const space = this.popoff.space, mover = this.popoff.mover;
        this.popoff = null;
        this.last.push({cause: "popoff_void", piece: mover, space: space});
        if (this.t.stars.has(space)) this.phase = WHEEL;
        else this.nextMove();
      }
    }

    /* The turn passes to the next colour with pieces on the board, without
       counting as a turn played. */
    passTurn() {
      this.dice = [];
      let colour = this.colour;
      for (let k = 0; k < this.colours; k++) {
        colour = (colour + 1) % this.colours;
        if (this.livePieces(colour).length) break;
      }
      this.colour = colour;
      this.phase = ROLL;
    }

    // ------------------------------------------------------- JSON

    toJson() {
      const players = this.players;
      const pieces = this.pieces.map((place, piece) => {
        const space = place[0], port = place[1];
        const colour = Math.floor(piece / 2), seat = colour % players;
        if (space < 0) {
          return {id: piece, colour: colour, seat: seat, space: null, port: null, heading: null,
            finished: space === FINISHED};
        }
        return {id: piece, colour: colour, seat: seat, space: space, port: port,
          heading: step(this.t, space, port, this.wheels)[0], finished: false};
      });
      const colours = [];
      for (let c = 0; c < this.colours; c++) colours.push({colour: c, seat: c % players, pieces: [2 * c, 2 * c + 1]});
      return {
        game: "detour",
        players: players,
        pieces_per_player: 2 * this.colours / players,   // Python's //: exact, colours = players * pieces / 2
        colours: colours,
        pieces: pieces,
        wheels: [...this.wheels],
        colour: this.colour,
        seat: this.colour % players,
        phase: this.phase,
        dice: [...this.dice],
        queue: this.queue.map(([piece, die]) => ({piece: piece, die: die})),
        popoff: this.popoff === null ? null : copyPopoff(this.popoff),
        own: this.own === null ? null : [...this.own],
        turns: this.turns,
        turn_cap: TURN_CAP,
        winner: this.winner,
        ending: this.ending,
        retired: [...this.retired],
        last: this.last.map((effect) => ({...effect})),
      };
    }

    /* A state of its own (nothing shared with ``data``), as Python's from_json. */
    static fromJson(t, data) {
      const pieces = data.pieces.map((p) =>
        p.space === null ? (p.finished ? [FINISHED, FINISHED] : [RETIRED, RETIRED]) : [p.space, p.port]);
      return new DetourState(t, data.players, data.colours.length, pieces, [...data.wheels], data.colour, data.phase,
        [...data.dice], data.queue.map((q) => [q.piece, q.die]),
        data.popoff === null ? null : copyPopoff(data.popoff), data.own === null ? null : [...data.own],
        data.turns, data.winner, data.ending, data.last.map((effect) => ({...effect})), [...data.retired]);
    }
  }

  /* The state after ``event``, as arena/games/events.py's replay makes it. */
  function apply(data, event, board) {
    const state = DetourState.fromJson(tables(board), data);
    applyEvent(state, event);
    return state.toJson();
  }

  function initial(players, options, board) {
    return DetourState.initial(tables(board), board, players, options).toJson();
  }

  /* The actions offered to the seat to decide in ``data``: state.legal_actions(). */
  function legalActions(data, board) {
    return DetourState.fromJson(tables(board), data).legalActions();
  }

  // ---------------------------------------------------------------- the words
  // text_view.py's DetourTextView.

  const TURN_WORDS = {cw: "a quarter turn clockwise", ccw: "a quarter turn anticlockwise", half: "a half turn"};
  // _space's words for special spaces (a Map: a plain object would answer "constructor" too).
  const EXTRA = new Map([["finish", ", FINISH"], ["star", ", a star"]]);

  /* Python's ``container[key]`` where the view reads an offered action (the
     record's, which the view does not check): a missing key or index
     raises there (KeyError, IndexError), a TypeError here, which the frame
     (ArenaEngines.TextView.action) catches as Python's catches those. */
  function item(container, key) {
    if (Array.isArray(container)) {
      try {
        return pyItem(container, key);
      } catch (error) {
        throw new TypeError(error.message);
      }
    }
    if (container !== null && typeof container === "object" && Object.prototype.hasOwnProperty.call(container, key)) {
      return container[key];
    }
    throw new TypeError("no " + compact(key) + " in " + compact(container));
  }

  /* A space by its id and where it lies: the rules document's names. */
  function spaceWords(view, space) {
    if (space === null || space === undefined) return "off the board";
    const board = view.board;
    if (space === board.centre) return space + " (the centre)";
    const start = board.starts.findIndex((s) => s.space === space);
    if (start >= 0) return space + " (START " + start + ")";
    if (view.hubs.has(space)) return view.hubs.get(space);
    const kind = space < board.spaces.length ? board.spaces[space].kind : "";
    const extra = EXTRA.has(kind) ? EXTRA.get(kind) : "";
    const segment = board.segments.find((s) => s.spaces.includes(space));
    if (segment) return space + " (" + segment.name + extra + ")";
    return space + (extra ? " (" + extra.slice(2) + ")" : "");
  }

  /* A space as briefly as the board shows it: its number, or the hub of its
     wheel (hubs turn with their wheel and carry no number). */
  function spot(view, space) {
    if (space === null || space === undefined) return "off the board";
    return view.hubs.has(space) ? view.hubs.get(space) : String(space);
  }

  function owner(view, piece) {
    return pieceOwner(piece, view.names.length);
  }

  /* A piece by its owner and the space it stands on: "alpha's piece on 12". */
  function pieceWords(view, piece, state) {
    const space = state.pieces[piece].space;
    return view.whose(owner(view, piece)) + " piece" + (space === null ? "" : " on " + spot(view, space));
  }

  class DetourTextView extends TextView {
    constructor(board, names, you) {
      super(board, names, you);
      this.engineMoves = new Set(["move"]);
      this.hubs = new Map(board.wheels.map((wheel) => [wheel.hub, "the hub of wheel " + wheel.name]));
    }

    describeAction(action, state) {
      if ("die" in action) {
        const where = spot(this, item(state.pieces, item(action, "piece")).space);
        return "move the piece on " + where + " first, by " + action.die + " (the other piece moves the other die)";
      }
      if ("toward" in action) return "leave the centre toward space " + spaceWords(this, action.toward);
      if ("wheel" in action) {
        const name = item(this.board.wheels, action.wheel).name;
        return "turn wheel " + name + " " + item(TURN_WORDS, item(action, "turn"));
      }
      const start = item(this.board.starts, item(action, "start")).space;
      if (state.phase === "own_start") {
        return "send the moving piece to START " + action.start + " (space " + start + "), the other to the other";
      }
      return "send the losing piece to START " + action.start + " (space " + start + ")";
    }

    describeEffect(effect, state) {
      const cause = effect.cause;
      if (cause === "roll") return this.says(effect.seat, "rolls") + " " + effect.dice.join(" and ");
      if (cause === "move") {
        const whose = this.whose(owner(this, effect.piece));
        return whose + " piece moves " + effect.die + " from " + spot(this, effect.from) + " to " + spaceWords(this, effect.to);
      }
      if (cause === "wheel") {
        const name = this.board.wheels[effect.wheel].name;
        const turn = Object.prototype.hasOwnProperty.call(TURN_WORDS, effect.turn) ? TURN_WORDS[effect.turn] : effect.turn;
        const carried = (effect.carried || []).map((piece) => ", carrying " + pieceWords(this, piece, state)).join("");
        return "wheel " + name + " turns " + turn + carried;
      }
      if (cause === "popoff") {
        const pops = effect.pops;
        const mover = this.whose(owner(this, effect.mover)) + " moving piece";
        const defender = this.whose(owner(this, effect.defender)) + " piece";
        const winner = effect.winner === null ? "pop again" : (effect.winner === effect.mover ? mover : defender) + " wins";
        return "pop-off: " + mover + " pops " + pops[0] + ", " + defender + " pops " + pops[1] + ": " + winner;
      }
      if (cause === "sent_back") {
        return this.whose(owner(this, effect.piece)) + " piece on " + spot(this, effect.from) + " goes back to START " +
          effect.start + " (space " + effect.to + ")";
      }
      if (cause === "finish") {
        return this.whose(owner(this, effect.piece)) + " piece finishes from " + effect.space + " and leaves the board";
      }
      if (cause === "win") return this.says(effect.seat, "wins");
      if (cause === "retire") return this.says(effect.seat, "is") + " out of the game";
      if (cause === "popoff_void") return "the pop-off on " + spot(this, effect.space) + " is called off";
      if (cause === "turn_cap") return "the game stops at the turn cap (" + effect.turns + " turns)";
      return compact(effect);
    }
  }

  ArenaEngines.detour = {initial: initial, apply: apply, legalActions: legalActions, View: DetourTextView};
})();
