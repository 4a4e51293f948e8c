/* Slyyde's replay engine for the browser (the contract is in
   arena/games/text_view.js): arena/games/slyyde/engine.py and text_view.py
   made again in JavaScript, so that a page rebuilds every state, the
   actions offered at every decision and every step's words from a record's
   events. It must equal the Python engine on every step
   (tests/test_engines_js.py): the structure and names below follow
   engine.py's (camelCase), so one can be read against the other.

   Positions are track numbers, 0 (Start) to 99 (Centre). The phases
   "rolloff" and "roll" are chance; "move" (the black square's diagonal) and
   "back6" (which opponent a Back-6 square sends back) are decisions. */
(function (global) {
  "use strict";
  const engines = global.ArenaEngines = global.ArenaEngines || {};
  const {compact, applyEvent, checkOffered, perBoard} = engines.util;

  const TURN_CAP = 1000;
  const BACK_STEPS = 6;
  const CHANCE = -1;     // arena.games.base: the current "player" where chance acts
  const TERMINAL = -2;   // and where the game is over
  const ROLLOFF = "rolloff", ROLL = "roll", MOVE = "move", BACK6 = "back6", OVER = "over";
  const OPTIONS = ["first_player"];

  /* The engine's lookup tables (engine.py's START, CENTRE, IMMUNE, DIAGONAL,
     TRIANGLE, BACK6_SQUARES), read from the board data, once per board. */
  const tables = perBoard((board) => ({
    start: board.start,
    centre: board.centre,
    immune: new Set(board.immune),
    diagonal: new Map(board.black.map((b) => [b.square, b.diagonal])),
    triangle: new Map(board.triangles.map((t) => [t.square, {safe: t.safe, line: t.path}])),
    back6Squares: new Set(board.back6),
  }));

  /* _OTHERS[players][seat]: the other seats clockwise from ``seat``. */
  function others(players, seat) {
    const found = [];
    for (let step = 1; step < players; step++) found.push((seat + step) % players);
    return found;
  }

  /* Where a forward move by ``die`` ends: the exact Centre or short of it;
     a roll that overshoots leaves the pawn where it is. */
  function forwardTarget(here, die, centre) {
    const target = here + die;
    return target <= centre ? target : here;
  }

  /* Python's range(start, stop, step), for the paths. */
  function range(start, stop, step) {
    const values = [];
    for (let value = start; step > 0 ? value < stop : value > stop; value += step) values.push(value);
    return values;
  }

  class SlyydeState {
    /* From the state's JSON: every list a step changes is copied, so the argument is never changed. */
    constructor(data, board) {
      this.tables = tables(board);  // the board's lookup tables
      this.players = data.players;
      this.positions = data.positions.slice();
      this.rolls = data.rolls.slice();
      this.phase = data.phase;
      this.turn = data.turn;
      this.firstPlayer = data.first_player;
      this.contenders = data.contenders.slice();
      this.die = data.die;
      this.turns = data.turns;
      this.winner = data.winner;
      this.ending = data.ending;
      // Every step starts by emptying ``last`` (begin), so the given effects are never changed.
      this.last = data.last;
      this.retired = data.retired.slice();
    }

    // ----------------------------------------------------------- set-up

    static initial(numPlayers, options, board) {
      // Python's options.get("first_player"): an absent option and null both mean none.
      let first = options.first_player === undefined ? null : options.first_player;
      // typeof refuses booleans as Python's isinstance(first, bool) does; Number.isInteger refuses
      // 1.5 as Python refuses a float (but JSON's 1.0 is 1 here, a float there).
      if (first !== null && (typeof first !== "number" || !Number.isInteger(first) || !(first >= 0 && first < numPlayers))) {
        throw new Error("first_player must be a seat from 0 to " + (numPlayers - 1) + ", got " + compact(first));
      }
      if (numPlayers === 1) first = 0;
      const phase = first !== null ? ROLL : ROLLOFF;
      const contenders = first !== null ? [] : range(0, numPlayers, 1);
      const start = tables(board).start;
      return new SlyydeState({
        players: numPlayers, positions: Array(numPlayers).fill(start), rolls: Array(numPlayers).fill(0),
        phase: phase, turn: first, first_player: first, contenders: contenders, die: null, turns: 0,
        winner: null, ending: null, last: [], retired: [],
      }, board);
    }

    // -------------------------------------------------------- interface

    currentPlayer() {
      if (this.phase === ROLL || this.phase === ROLLOFF) return CHANCE;
      if (this.phase === OVER) return TERMINAL;
      return this.seat();
    }

    /* The seat whose turn it is: known once the roll-off is over. */
    seat() {
      if (this.turn === null) throw new Error("no seat has the turn during the roll-off");
      return this.turn;
    }

    /* engine.py's legal_actions keeps _compute_legal's list until the next
       step; a state here lives for one step (apply and legalActions each make
       their own), so there is nothing to keep and it computes each time. */
    legalActions() {
      return this.computeLegal();
    }

    /* The keys of each action in the order engine.py writes them. */
    computeLegal() {
      if (this.phase === MOVE) {
        const here = this.positions[this.seat()];
        return [{move: "roll", to: forwardTarget(here, this.die, this.tables.centre)},
                {move: "diagonal", to: this.tables.diagonal.get(here)}];
      }
      if (this.phase === BACK6) return this.back6Targets().map((seat) => ({back6: seat}));
      return [];
    }

    applyChance(values) {
      // Python raises on no values too (max() of nothing, values[0] of nothing).
      if (!values.length) throw new Error("a chance event with no values");
      if (this.phase === ROLLOFF) {
        this.begin();
        this.rolloff(values);
      } else if (this.phase === ROLL) {
        this.begin();
        this.roll(values[0]);
      } else {
        throw new Error("no chance is due in phase " + compact(this.phase));
      }
    }

    /* base.State.apply_action: refuse anything that was not offered. */
    applyAction(action) {
      checkOffered(this, action);
      this.apply(action);
    }

    apply(action) {
      this.begin();
      const seat = this.seat();
      if (this.phase === MOVE) {
        this.move(seat, action.to, action.move === "diagonal" ? "diagonal" : "move");
      } else {
        this.phase = ROLL;  // provisional: endTurn decides what follows
        this.sendBack(action.back6, seat, "back6");
        this.endTurn();
      }
    }

    // ----------------------------------------------------------- JSON

    toJson() {
      return {
        game: "slyyde",
        players: this.players,
        phase: this.phase,
        turn: this.turn,
        first_player: this.firstPlayer,
        contenders: this.contenders.slice(),
        positions: this.positions.slice(),
        rolls: this.rolls.slice(),
        die: this.die,
        turns: this.turns,
        turn_cap: TURN_CAP,
        winner: this.winner,
        ending: this.ending,
        retired: this.retired.slice(),
        // A step's effects are new objects made by that step (after begin), shared with
        // nothing: unlike engine.py's to_json, whose state lives on, no copy is needed.
        last: this.last,
      };
    }

    // ----------------------------------------------------------- retiring

    /* base.State._check_retire: refuse a retirement that cannot happen. */
    checkRetire(seat) {
      if (this.currentPlayer() === TERMINAL) throw new Error("the game is over: seat " + compact(seat) + " cannot retire");
      if (typeof seat !== "number" || !Number.isInteger(seat) || !(seat >= 0 && seat < this.players)) {
        throw new Error("no seat " + compact(seat) + " in a game of " + this.players);
      }
      if (this.retired.includes(seat)) throw new Error("seat " + seat + " has already retired");
      if (this.players === 1) throw new Error("the only seat of a solo game cannot retire: nobody is left to play on");
    }

    /* The seat's pawn leaves the race (decisions 23-26). */
    retire(seat) {
      this.checkRetire(seat);
      this.begin();
      this.retired.push(seat);
      this.last.push({cause: "retire", seat: seat});
      const active = this.active();
      if (active.length === 1) {
        this.finish(active[0]);
      } else if (this.phase === ROLLOFF) {
        const index = this.contenders.indexOf(seat);
        if (index >= 0) {
          this.contenders.splice(index, 1);
          if (this.contenders.length === 1) {  // the one left tied for highest starts
            this.firstPlayer = this.turn = this.contenders[0];
            this.contenders = [];
            this.phase = ROLL;
            this.last.push({cause: "first_player", seat: this.turn});
          }
        }
      } else if (this.turn === seat) {
        this.phase = ROLL;  // its turn ends here, with whatever it had left
        this.die = null;
        this.turn = this.nextActive(seat);
      } else if (this.phase === BACK6) {
        const targets = this.back6Targets();
        const mover = this.seat();
        if (targets.length === 1) {
          this.sendBack(targets[0], mover, "back6");  // decision 12
        } else if (!targets.length) {
          this.last.push({cause: "back6_none", seat: mover});
        }
        if (targets.length <= 1) this.endTurn();
      }
    }

    /* The seats still in the game, in seat order. */
    active() {
      return range(0, this.players, 1).filter((seat) => !this.retired.includes(seat));
    }

    /* The next seat clockwise after ``seat`` that is still in the game. */
    nextActive(seat) {
      for (const other of others(this.players, seat)) {
        if (!this.retired.includes(other)) return other;
      }
      throw new Error("no seat left to play");  // (a game of one never asks)
    }

    // ----------------------------------------------------------- rules

    /* Start a new step: forget the last effects. */
    begin() {
      this.last = [];
    }

    /* Everyone still in the roll-off rolls; the highest starts, ties re-roll
       among themselves. Python's zip stops at the shorter list; its max
       reads every value. */
    rolloff(values) {
      const rolled = this.contenders.slice(0, values.length);
      rolled.forEach((seat, i) => this.last.push({cause: "rolloff", seat: seat, die: values[i]}));
      const best = Math.max(...values);
      this.contenders = rolled.filter((seat, i) => values[i] === best);
      if (this.contenders.length === 1) {
        this.firstPlayer = this.turn = this.contenders[0];
        this.contenders = [];
        this.phase = ROLL;
        this.last.push({cause: "first_player", seat: this.turn});
      }
    }

    roll(die) {
      const seat = this.seat();
      this.die = die;
      this.rolls[seat] += 1;
      this.turns += 1;
      this.last.push({cause: "roll", seat: seat, die: die});
      const here = this.positions[seat];
      if (this.tables.diagonal.has(here) && (die === 1 || die === 6)) {
        this.phase = MOVE;  // the black square's option is a decision
        return;
      }
      this.move(seat, forwardTarget(here, die, this.tables.centre), "move");
    }

    /* The mover's own move forward (by the die or the diagonal), then
       whatever the landing square triggers, then the end of the turn. */
    move(seat, target, cause) {
      const here = this.positions[seat];
      this.phase = ROLL;  // provisional: a Back-6 choice or endTurn may change it
      if (target === here) {
        this.last.push({cause: "stay", seat: seat, at: here});  // decision 9
        this.endTurn();
        return;
      }
      const path = cause === "move" ? range(here, target + 1, 1) : [here, target];
      this.positions[seat] = target;
      this.last.push({cause: cause, seat: seat, from: here, to: target, path: path});
      if (target === this.tables.centre) {
        this.finish(seat);
        return;
      }
      if (this.tables.triangle.has(target)) {
        this.slyyde(seat, target);
      } else if (!this.tables.immune.has(target)) {
        this.bumpAll(seat, target);
      }
      if (this.tables.back6Squares.has(target) && this.players > 1) {
        const targets = this.back6Targets();
        if (targets.length > 1) {
          this.phase = BACK6;
          return;
        }
        if (targets.length) {
          this.sendBack(targets[0], seat, "back6");  // decision 12
        } else {
          this.last.push({cause: "back6_none", seat: seat});
        }
      }
      this.endTurn();
    }

    /* Every opponent on the mover's landing square goes back six, in
       clockwise order from the mover (decision 6). */
    bumpAll(mover, square) {
      if (this.positions.filter((at) => at === square).length < 2) return;  // the mover alone
      for (const seat of others(this.players, mover)) {
        if (this.positions[seat] === square && !this.retired.includes(seat)) this.sendBack(seat, mover, "bump");
      }
    }

    /* Move a pawn back six along the track, never below the Start; only a
       triangle acts on a pawn moved backward (decisions 2-5). */
    sendBack(seat, by, cause) {
      const here = this.positions[seat];
      const target = Math.max(this.tables.start, here - BACK_STEPS);
      this.positions[seat] = target;
      this.last.push({cause: cause, seat: seat, by: by, from: here, to: target, path: range(here, target - 1, -1)});
      if (this.tables.triangle.has(target)) this.slyyde(seat, target);
    }

    /* The pawn on a triangle goes to its Safe square; every other pawn on
       the straight path that is not on a Safe square goes there too. */
    slyyde(seat, triangle) {
      const {safe, line} = this.tables.triangle.get(triangle);
      this.positions[seat] = safe;
      this.last.push({cause: "slyyde", seat: seat, from: triangle, to: safe, path: [triangle, ...line, safe]});
      for (const other of others(this.players, seat)) {
        const here = this.positions[other];
        if (line.includes(here) && !this.tables.immune.has(here) && !this.retired.includes(other)) {
          this.positions[other] = safe;
          this.last.push({cause: "sweep", seat: other, by: seat, from: here, to: safe,
                          path: [...line.slice(line.indexOf(here)), safe]});
        }
      }
    }

    back6Targets() {
      return range(0, this.players, 1).filter((seat) =>
        seat !== this.turn && !this.tables.immune.has(this.positions[seat]) && !this.retired.includes(seat));
    }

    endTurn() {
      if (this.turns >= TURN_CAP) {
        this.phase = OVER;
        this.ending = "turn_cap";
        this.last.push({cause: "turn_cap", turns: this.turns});
        return;
      }
      this.phase = ROLL;
      if (this.die === 6) {
        this.last.push({cause: "extra_turn", seat: this.turn});
      } else {
        this.turn = this.players > 1 ? this.nextActive(this.seat()) : this.seat();
      }
    }

    finish(seat) {
      this.phase = OVER;
      this.winner = seat;
      this.ending = "normal";
      this.last.push({cause: "win", seat: seat});
    }
  }

  /* GAME.new_state: the player count and the options checked, then the state's own check. */
  function initial(players, options, board) {
    if (!(Number.isInteger(players) && players >= 1 && players <= 4)) {
      throw new Error("slyyde is for 1 to 4 players, not " + players);
    }
    // Python sorts the unknown names; JavaScript's default sort is by UTF-16 code
    // units, which orders the ASCII names options have as Python does.
    const unknown = Object.keys(options || {}).filter((name) => !OPTIONS.includes(name)).sort();
    if (unknown.length) {
      throw new Error("slyyde has no option " + compact(unknown[0]) + " (available: " + OPTIONS.join(", ") + ")");
    }
    return SlyydeState.initial(players, options || {}, board).toJson();
  }

  /* One step of arena/games/events.py's replay, on a new state. */
  function apply(state, event, board) {
    const next = new SlyydeState(state, board);
    applyEvent(next, event);
    return next.toJson();
  }

  /* The actions offered to the seat to decide in ``state``: state.legal_actions(). */
  function legalActions(state, board) {
    return new SlyydeState(state, board).legalActions();
  }

  /* arena/games/slyyde/text_view.py's SlyydeTextView: each offered action's
     meaning and what each step did. The actions and effects it reads are
     the engine's, which always carry the keys read here. */
  class SlyydeView extends engines.TextView {
    constructor(board, names, you) {
      super(board, names, you);
      this.engineMoves = new Set(["move", "diagonal", "stay"]);
    }

    describeAction(action, state) {
      if ("back6" in action) {
        const victim = action.back6;
        return "send " + this.seat(victim) + " back six squares from square " + state.positions[victim];
      }
      const here = state.positions[state.turn];
      if (action.move === "diagonal") return "take the black square's diagonal from " + here + " to square " + action.to;
      if (action.to === here) return "move by the die: too far, stay on square " + here;
      return "move by the die from " + here + " to square " + action.to;
    }

    describeEffect(effect, state) {
      // effect.get("seat"): null where there is none, as Python's None.
      const cause = effect.cause, seat = "seat" in effect ? effect.seat : null;
      const says = (who, verb) => this.says(who, verb);
      switch (cause) {
        case "rolloff": return says(seat, "rolls") + " " + effect.die + " to see who starts";
        case "first_player": return says(seat, "starts");
        case "roll": return says(seat, "rolls") + " " + effect.die;
        case "move": return says(seat, "moves") + " from " + effect.from + " to " + effect.to;
        case "diagonal": return says(seat, "takes") + " the diagonal from " + effect.from + " to " + effect.to;
        case "stay": return says(seat, "stays") + " on " + effect.at + " (the roll is too high)";
        case "slyyde": return says(seat, "slyydes") + " from triangle " + effect.from + " to safe square " + effect.to;
        case "sweep": return says(seat, "is") + " swept by " + this.seat(effect.by) + " from " + effect.from +
          " to " + effect.to;
        case "back6": return says(effect.by, "sends") + " " + this.seat(seat) + " back six, from " + effect.from +
          " to " + effect.to;
        case "bump": return says(effect.by, "lands") + " on " + this.seat(seat) + ": back six, from " + effect.from +
          " to " + effect.to;
        case "back6_none": return says(seat, "lands") + " on a back-6 square with no opponent to send back";
        case "extra_turn": return says(seat, "rolled") + " a 6 and " + (seat === this.you ? "play" : "plays") + " again";
        case "retire": return says(seat, "is") + " out of the game";
        case "win": return says(seat, "reaches") + " the centre and " + (seat === this.you ? "win" : "wins");
        case "turn_cap": return "the game stops at the turn cap (" + effect.turns + " turns)";
        default: return compact(effect);
      }
    }
  }

  engines.slyyde = {initial: initial, apply: apply, legalActions: legalActions, View: SlyydeView};
})(typeof window !== "undefined" ? window : globalThis);
