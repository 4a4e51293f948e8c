/* Ciclovia's replay engine for the browser (GameSpec.engine_js, the
   contract in arena/games/text_view.js): arena/games/ciclovia/engine.py and
   text_view.py made again in JavaScript, so that a page rebuilds every
   state and every step's words from a record's events. The structure and
   the names are the Python ones (camelCase), so that one can be read
   against the other; where JavaScript behaves unlike Python, a comment
   says so. tests/test_engines_js.py checks that both agree.

   A state is rebuilt from its JSON (CicloviaState.fromJson, as Python's
   from_json), changed by the event as the Python engine changes it, and
   written out again (toJson): the argument is never touched. legalActions
   makes the actions offered at a decision again, which a stored record
   does not carry (its decisions name the action chosen). */
(function (global) {
  "use strict";
  const engines = global.ArenaEngines;
  const {compact, applyEvent, checkOffered, perBoard} = engines.util;

  const TURN_CAP = 1000;     // decision 18: a turn is one rider's move
  const QUIET_TURNS = 100;   // decision 17: stage-2 turns in a row with no die taken or arrival
  const CHANCE = -1;         // arena/games/base.py's current_player() values
  const TERMINAL = -2;
  const OPPOSITE = {N: "S", S: "N", E: "W", W: "E"};
  const COLOUR_BONUS = {blue: 1, red: -1, green: 0, orange: 0};
  const LIGHT_BONUS = 2;
  const ARRIVAL_BONUS = 2;
  const MOST_DICE_BONUS = 3;
  // Phases: "deal" and "roll" are chance, "turn" is a rider deciding, "over" the end.
  const DEAL = "deal", ROLL = "roll", TURN = "turn", OVER = "over";

  function factorial(n) {
    let product = 1;
    for (let k = 2; k <= n; k++) product *= k;
    return product;   // 12! at most here, well within a double's exact integers
  }

  /* The engine's module constants, which Python derives from the board data
     once (engine.py's BOARD ... STAGE_DECK), derived here once per board
     object. */
  const city = perBoard((board) => {
    const colours = board.colours;
    const perStage = board.stage_dice_per_colour;
    const stageBlocks = {};
    for (const stage of [1, 2]) stageBlocks[stage] = board.blocks.filter((b) => b.stage === stage).map((b) => b.id);
    // STAGE_DECK: three dice of each colour, in this order before the shuffle.
    const stageDeck = [];
    for (const colour of colours) for (let k = 0; k < perStage; k++) stageDeck.push(colour);
    return {
      GARAGE: board.garage,
      ARRIVALS: new Set(board.arrivals),
      LIGHT: new Set(board.light.spaces),
      BROWN: new Set(board.spaces.filter((s) => s.lane === "brown").map((s) => s.id)),
      EXITS: board.spaces.map((s) => s.exits),
      COLOURS: colours,
      DICE_PER_COLOUR: board.dice_per_colour,
      PER_STAGE: perStage,
      STAGE_BLOCKS: stageBlocks,
      NUM_BLOCKS: board.blocks.length,
      DOORS_AT: doorsAt(board),
      STAGE_DECK: stageDeck,
      SHUFFLE_SIDES: factorial(stageDeck.length),
    };
  });

  /* For every space, the [block, door number] pairs of the doors it faces,
     sorted as Python sorts the tuples. */
  function doorsAt(board) {
    const at = board.spaces.map(() => []);
    for (const block of board.blocks) {
      for (const door of block.doors) at[door.space].push([block.id, door.number]);
    }
    for (const doors of at) doors.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return at;
  }

  /* A collected die's points: colour adjustment first, then doubling
     (decisions 9 and 10). */
  function diePoints(colour, value, doubled) {
    const points = value + COLOUR_BONUS[colour];
    return doubled ? 2 * points : points;
  }

  /* Decode a draw 1..n! into a permutation of ``items`` (Lehmer code). The
     index is never negative, so JavaScript's % and Math.floor are Python's
     divmod. */
  function unshuffle(number, items) {
    const rest = items.slice();
    let index = number - 1;
    const order = [];
    for (let place = rest.length - 1; place >= 0; place--) {
      const size = factorial(place);
      const pick = Math.floor(index / size);
      index %= size;
      order.push(rest.splice(pick, 1)[0]);
    }
    return order;
  }

  /* The rider's move in progress (engine.py's Move). */
  class Move {
    constructor(steps, allowance, extra, lastDir, collecting) {
      this.steps = steps;
      this.allowance = allowance;
      this.extra = extra;
      this.lastDir = lastDir;
      this.collecting = collecting;
    }

    /* Two steps when the move starts on the fast lane, else one (decision 4). */
    static startingAt(space, c) {
      return new Move(0, c.BROWN.has(space) ? 2 : 1, false, null, false);
    }

    toJson() {
      return {steps: this.steps, allowance: this.allowance, green_extra: this.extra,
              last_step: this.lastDir, at_doors: this.collecting};
    }

    static fromJson(data) {
      return new Move(data.steps, data.allowance, data.green_extra, data.last_step, data.at_doors);
    }
  }

  /* One position (engine.py's CicloviaState). Where Python holds a die as a
     tuple, this holds it as the state's JSON does: {colour, value} on a
     block, {colour, value, doubled, points} held. A die is never changed,
     so states share them (the lists that hold them are copied). */
  class CicloviaState {
    constructor(players, c) {
      this.c = c;   // the board's derived constants (Python's module constants)
      this.players = players;
      this.stage = 1;
      this.phase = DEAL;
      this.deck = null;
      this.blocks = [];
      for (let b = 0; b < c.NUM_BLOCKS; b++) this.blocks.push(null);
      this.box = {};
      for (const colour of c.COLOURS) this.box[colour] = c.DICE_PER_COLOUR - c.PER_STAGE;
      this.pos = [];
      this.facing = [];
      this.dice = [];
      this.doubleNext = [];
      this.arrived = [];
      for (let s = 0; s < players; s++) {
        this.pos.push(c.GARAGE);
        this.facing.push("E");
        this.dice.push([]);
        this.doubleNext.push(false);
        this.arrived.push(false);
      }
      this.seat = 0;
      this.turn = 0;
      this.lastProgress = 0;
      this.move = null;
      this.lightFirst = null;
      this.arrivalFirst = null;
      this.final = null;
      this.ending = null;
      this.retired = [];
      this.last = [];
      this.legal = null;
    }

    // ----------------------------------------------------------- queries

    currentPlayer() {
      if (this.phase === TURN) return this.seat;
      return this.phase === DEAL || this.phase === ROLL ? CHANCE : TERMINAL;
    }

    /* What chance draws now: ``count`` values from 1 to ``sides``. */
    chanceRequest() {
      if (this.phase === DEAL) return {count: 1, sides: this.c.SHUFFLE_SIDES};
      if (this.phase === ROLL) return {count: this.c.STAGE_DECK.length, sides: 6};
      throw new Error("no chance is due in phase " + JSON.stringify(this.phase));
    }

    legalActions() {
      if (this.legal === null) this.legal = this.phase === TURN ? this.computeLegal() : [];
      return this.legal;
    }

    /* Takes at the doors just reached (decision 11), else the open steps,
       then stay (at the start of a move) or stop (later), then reverse
       while the move has a step left for it (decision 5). */
    computeLegal() {
      const move = this.move;
      if (move.collecting) {
        const takes = this.matchingBlocks(this.pos[this.seat]).map((block) => {
          const die = this.blocks[block];
          return {take: block, colour: die.colour, value: die.value};
        });
        return takes.concat([{leave: true}]);
      }
      const actions = this.openSteps().map(([d, to]) => ({step: d, to: to}));
      actions.push(move.steps ? {stop: true} : {stay: true});
      if (this.canReverse()) actions.push({reverse: true});
      return actions;
    }

    /* Turning round spends one step of the move, so it needs one left;
       never in the garage, nor twice in a row (decision 5). */
    canReverse() {
      const move = this.move;
      return this.pos[this.seat] !== this.c.GARAGE && move.steps < move.allowance && move.lastDir !== "reverse";
    }

    /* The steps the rider to move may take now: forward (its facing) or
       sideways, never back, onto a free space, and into an arrival point
       only holding every colour (decisions 5, 6, 19). */
    openSteps() {
      const seat = this.seat;
      const back = OPPOSITE[this.facing[seat]];
      const taken = new Set(this.pos.filter((p, s) => s !== seat && p !== this.c.GARAGE && !this.retired.includes(s)));
      const complete = this.hasEveryColour(seat);
      return this.c.EXITS[this.pos[seat]].filter(([d, to]) =>
        d !== back && !taken.has(to) && (complete || !this.c.ARRIVALS.has(to)));
    }

    /* Blocks whose door at ``space`` shows their die's value. */
    matchingBlocks(space) {
      const blocks = this.blocks;
      return this.c.DOORS_AT[space].filter(([b, number]) => blocks[b] !== null && blocks[b].value === number)
        .map(([b]) => b);
    }

    /* The colours a rider still lacks; a doubled die does not count for its
       colour (decision 10). */
    missing(seat) {
      const held = [];
      for (const die of this.dice[seat]) if (!die.doubled) held.push(die.colour);
      const missing = [];
      for (const colour of this.c.COLOURS) if (!held.includes(colour)) missing.push(colour);
      return missing;
    }

    hasEveryColour(seat) {
      return this.missing(seat).length === 0;
    }

    /* Whether the dice left on the blocks still let a rider complete the
       colours (decision 15): see engine.py. */
    canStillComplete(seat) {
      const missing = this.missing(seat);
      if (this.stage === 1 || !missing.length) return true;
      const onBoard = this.blocks.filter((die) => die !== null).map((die) => die.colour);
      if (missing.some((colour) => !onBoard.includes(colour))) return false;
      if (!this.doubleNext[seat]) return true;
      const needed = missing.filter((colour) => colour !== "orange").length;
      return onBoard.filter((colour) => colour !== "orange").length > needed;
    }

    /* Dice points plus bonuses for every seat (decisions 13 and 24). */
    totals() {
      const counts = [];
      for (let s = 0; s < this.players; s++) if (!this.retired.includes(s)) counts.push(this.dice[s].length);
      const most = Math.max(1, ...counts);   // Python's max(1, max(counts, default=0))
      const totals = [];
      for (let seat = 0; seat < this.players; seat++) {
        let total = 0;
        for (const die of this.dice[seat]) total += diePoints(die.colour, die.value, die.doubled);
        totals.push(total
          + (this.lightFirst === seat ? LIGHT_BONUS : 0)
          + (this.arrivalFirst === seat ? ARRIVAL_BONUS : 0)
          + (this.dice[seat].length === most && !this.retired.includes(seat) ? MOST_DICE_BONUS : 0));
      }
      return totals;
    }

    // ----------------------------------------------------------- chance

    applyChance(values) {
      const request = this.chanceRequest();
      // Python compares each value with 1 and sides and takes what fits; a
      // value that is not an integer is refused here (Python would fail on
      // it, or store it on a block, where no referee's record has one).
      if (!Array.isArray(values) || values.length !== request.count ||
          !values.every((v) => Number.isInteger(v) && v >= 1 && v <= request.sides)) {
        throw new Error("expected " + request.count + " values from 1 to " + request.sides + ", got " + compact(values));
      }
      this.legal = null;
      const stageBlocks = this.c.STAGE_BLOCKS[this.stage];
      if (this.phase === DEAL) {
        this.deck = unshuffle(values[0], this.c.STAGE_DECK);
        this.phase = ROLL;
        this.last = [{cause: "shuffle", stage: this.stage,
                      colours: stageBlocks.map((b, k) => ({block: b, colour: this.deck[k]}))}];
        return;
      }
      const placed = [];
      stageBlocks.forEach((block, k) => {
        const colour = this.deck[k], value = values[k];
        this.blocks[block] = {colour: colour, value: value};
        placed.push({block: block, colour: colour, value: value});
      });
      this.deck = null;
      this.phase = TURN;
      this.last = [{cause: "roll", stage: this.stage, dice: placed}];
      if (this.stage === 1) {
        let first = 0;
        while (this.retired.includes(first)) first++;
        this.beginMove(first);
      } else {
        this.advance(this.lightFirst);
      }
    }

    // ----------------------------------------------------------- decisions

    /* Apply a decision, refusing anything that was not offered (base.py's apply_action). */
    applyAction(action) {
      checkOffered(this, action);
      this.apply(action);
    }

    apply(action) {
      this.legal = null;
      this.last = [];
      if ("step" in action) {
        this.step(action.step, action.to);
      } else if ("take" in action) {
        this.take(action.take);
      } else if ("leave" in action) {
        this.last.push({cause: "leave", rider: this.seat, space: this.pos[this.seat]});
        this.afterDoors();
      } else if ("reverse" in action) {
        this.reverse();
      } else {  // stay, stop
        this.last.push({cause: "stay" in action ? "stay" : "stop", rider: this.seat, space: this.pos[this.seat]});
        this.endMove();
      }
    }

    step(direction, to) {
      const seat = this.seat, move = this.move;
      const start = this.pos[seat];
      this.pos[seat] = to;
      move.steps += 1;
      move.lastDir = direction;
      this.facing[seat] = direction;
      this.last.push({cause: "step", rider: seat, from: start, to: to, path: [start, to], dir: direction});
      if (this.c.ARRIVALS.has(to)) this.arrive();
      else if (this.matchingBlocks(to).length) move.collecting = true;
      else this.afterDoors();
    }

    /* Turn round on the spot: one step of the move spent, no die taken
       (decisions 5 and 11); the move goes on if a step is left. */
    reverse() {
      const seat = this.seat, move = this.move;
      this.facing[seat] = OPPOSITE[this.facing[seat]];
      move.steps += 1;
      move.lastDir = "reverse";
      this.last.push({cause: "reverse", rider: seat, facing: this.facing[seat]});
      this.goOn();
    }

    take(block) {
      const seat = this.seat, move = this.move;
      const {colour, value} = this.blocks[block];
      this.blocks[block] = null;
      const doubled = this.doubleNext[seat];
      const points = diePoints(colour, value, doubled);
      this.dice[seat].push({colour: colour, value: value, doubled: doubled, points: points});
      this.doubleNext[seat] = colour === "orange";
      this.last.push({cause: "take", rider: seat, block: block, colour: colour, value: value, doubled: doubled,
                      points: points});
      this.progress();
      if (colour === "green" && !move.extra) {
        move.extra = true;
        move.allowance += 1;
      }
      if (!this.matchingBlocks(this.pos[seat]).length) this.afterDoors();
    }

    /* Done at this space's doors: the light ends stage 1 (decision 7), else
       the move goes on if steps remain and one is open. */
    afterDoors() {
      this.move.collecting = false;
      if (this.stage === 1 && this.c.LIGHT.has(this.pos[this.seat])) this.endStage();
      else this.goOn();
    }

    /* The move ends by itself when no step is left, or when the rider can
       neither step nor turn round. */
    goOn() {
      const move = this.move;
      if (move.steps >= move.allowance || !(this.openSteps().length || this.canReverse())) this.endMove();
    }

    arrive() {
      const seat = this.seat;
      this.arrived[seat] = true;
      this.progress();
      this.last.push({cause: "arrive", rider: seat, space: this.pos[seat], first: this.arrivalFirst === null});
      if (this.arrivalFirst === null) {
        this.arrivalFirst = seat;
        this.final = this.orderAfter(seat).filter((s) => !this.arrived[s]);
      }
      this.endMove();
    }

    /* The first rider at the light: gather stage 1's dice, top up from the
       box to three of each colour, and deal stage 2 (decision 8). Objects
       keep their keys in insertion order, as Python's dicts do. */
    endStage() {
      const c = this.c;
      this.lightFirst = this.seat;
      this.progress();
      const gathered = {};
      for (const colour of c.COLOURS) gathered[colour] = 0;
      for (const block of c.STAGE_BLOCKS[1]) {
        const die = this.blocks[block];
        if (die !== null) {
          gathered[die.colour] += 1;
          this.blocks[block] = null;
        }
      }
      const fromBox = {};
      for (const colour of c.COLOURS) {
        this.box[colour] -= c.PER_STAGE - gathered[colour];
        fromBox[colour] = c.PER_STAGE - gathered[colour];
      }
      this.last.push({cause: "light", rider: this.seat, space: this.pos[this.seat], gathered: gathered, from_box: fromBox});
      this.move = null;
      this.turn += 1;
      this.stage = 2;
      this.phase = DEAL;
    }

    /* Something happened this turn: the quiet count restarts after it. */
    progress() {
      this.lastProgress = this.turn + 1;
    }

    endMove() {
      this.move = null;
      this.turn += 1;
      this.advance(this.seat);
    }

    /* Start the next rider's move, or end the game (decisions 15 and 17,
       the turn cap). */
    advance(previous) {
      if (this.final !== null) {
        if (this.final.length) this.beginMove(this.final.shift());
        else this.finish("arrival");
      } else if (!this.seatsStillIn().some((s) => !this.arrived[s] && this.canStillComplete(s))) {
        this.finish("exhausted");
      } else if (this.stage === 2 && this.turn - this.lastProgress >= QUIET_TURNS) {
        this.finish("quiet");
      } else if (this.turn >= TURN_CAP) {
        this.finish("turn_cap");
      } else {
        this.beginMove(this.orderAfter(previous)[0]);
      }
    }

    seatsStillIn() {
      const seats = [];
      for (let s = 0; s < this.players; s++) if (!this.retired.includes(s)) seats.push(s);
      return seats;
    }

    /* The other riders still in the game, in seat order after ``seat``. */
    orderAfter(seat) {
      const order = [];
      for (let k = 1; k < this.players; k++) {
        const other = (seat + k) % this.players;   // seat >= 0: JavaScript's % is Python's here
        if (!this.retired.includes(other)) order.push(other);
      }
      return order;
    }

    beginMove(seat) {
      this.seat = seat;
      this.phase = TURN;
      this.move = Move.startingAt(this.pos[seat], this.c);
    }

    finish(ending) {
      this.phase = OVER;
      this.ending = ending;
      this.move = null;
      this.deck = null;  // shuffled but never rolled (a retirement between the two): no draw is due
      this.last.push({cause: "end", ending: ending, scores: this.totals()});
    }

    // ----------------------------------------------------------- retiring

    /* The rider leaves the city: it blocks nobody, never moves again, and
       its move in progress ends (decisions 21-24). */
    retire(seat) {
      this.checkRetire(seat);
      this.legal = null;
      this.last = [{cause: "retire", rider: seat, space: this.pos[seat]}];
      this.retired.push(seat);
      if (this.final !== null && this.final.includes(seat)) this.final.splice(this.final.indexOf(seat), 1);
      if (this.seatsStillIn().length === 1) this.finish("retired");
      else if (this.phase === TURN && this.seat === seat) this.endMove();
    }

    /* base.py's _check_retire (a solo game cannot arise: Ciclovia is for 2 to 4). */
    checkRetire(seat) {
      if (this.currentPlayer() === TERMINAL) throw new Error("the game is over: seat " + compact(seat) + " cannot retire");
      if (!Number.isInteger(seat) || seat < 0 || seat >= this.players) {
        throw new Error("no seat " + compact(seat) + " in a game of " + this.players);
      }
      if (this.retired.includes(seat)) throw new Error("seat " + seat + " has already retired");
    }

    // ----------------------------------------------------------- JSON

    toJson() {
      const totals = this.totals();
      return {
        game: "ciclovia",
        players: this.players,
        stage: this.stage,
        phase: this.phase,
        turn: this.turn,
        last_progress: this.lastProgress,
        to_move: this.phase === TURN ? this.seat : null,
        move: this.move === null ? null : this.move.toJson(),
        riders: this.pos.map((space, s) => ({
          seat: s, space: space, facing: this.facing[s], arrived: this.arrived[s], double_next: this.doubleNext[s],
          dice: this.dice[s].slice(),
          missing: this.missing(s),
          score: totals[s]})),
        blocks: this.blocks.slice(),
        deck: this.deck === null ? null : this.deck.slice(),
        box: Object.assign({}, this.box),
        bonuses: {light: this.lightFirst, arrival: this.arrivalFirst},
        final_round: this.final === null ? null : this.final.slice(),
        ending: this.ending,
        retired: this.retired.slice(),
        scores: totals,
        last: this.last.slice(),
      };
    }

    /* Python's from_json makes a fresh state, then sets its fields; this
       sets every field on a bare object (Python's clone does so), as
       making the defaults first costs a page's replay time. */
    static fromJson(data, board) {
      const state = Object.create(CicloviaState.prototype);
      state.c = city(board);
      state.players = data.players;
      state.stage = data.stage;
      state.phase = data.phase;
      state.turn = data.turn;
      state.lastProgress = data.last_progress;
      state.seat = data.to_move !== null ? data.to_move : 0;
      state.move = data.move === null ? null : Move.fromJson(data.move);
      state.pos = [];
      state.facing = [];
      state.arrived = [];
      state.doubleNext = [];
      state.dice = [];
      for (const r of data.riders) {
        state.pos.push(r.space);
        state.facing.push(r.facing);
        state.arrived.push(r.arrived);
        state.doubleNext.push(r.double_next);
        state.dice.push(r.dice.slice());
      }
      state.blocks = data.blocks.slice();
      state.deck = data.deck === null ? null : data.deck.slice();
      state.box = Object.assign({}, data.box);
      state.lightFirst = data.bonuses.light;
      state.arrivalFirst = data.bonuses.arrival;
      state.final = data.final_round === null ? null : data.final_round.slice();
      state.ending = data.ending;
      state.retired = data.retired.slice();
      state.last = data.last.slice();  // effects, like dice, are never changed
      state.legal = null;
      return state;
    }
  }

  /* Game.new_state: the player count and options checked (Ciclovia has no options). */
  function initial(players, options, board) {
    if (!(Number.isInteger(players) && players >= 2 && players <= 4)) {
      throw new Error("ciclovia is for 2 to 4 players, not " + players);
    }
    const unknown = Object.keys(options || {}).sort();
    if (unknown.length) throw new Error("ciclovia has no option " + JSON.stringify(unknown[0]) + " (available: none)");
    return new CicloviaState(players, city(board)).toJson();
  }

  /* The state after one event, as arena/games/events.py's replay applies
     it (_apply_event). */
  function apply(state, event, board) {
    const next = CicloviaState.fromJson(state, board);
    applyEvent(next, event);
    return next.toJson();
  }

  /* The actions offered to the seat to decide in ``state``, in order (state.legal_actions()). */
  function legalActions(state, board) {
    return CicloviaState.fromJson(state, board).legalActions();
  }

  // ------------------------------------------------------------- the words

  const DIRECTIONS = new Map([["N", "north"], ["E", "east"], ["S", "south"], ["W", "west"]]);

  /* value[key] as Python reads a dict: a missing key raises (Python's
     KeyError, or TypeError on what is not a dict; a TypeError here, which
     the frame words as the JSON, as Python's text view does). ``in`` also
     finds what an object inherits, but no key read here (cause, rider,
     colour...) is the name of an Object.prototype property. Values are
     written with String(), which is Python's str() for the ints and strings
     the engine writes. */
  function at(value, key) {
    if (value === null || typeof value !== "object" || Array.isArray(value) || !(key in value)) {
      throw new TypeError("no " + key + " in " + compact(value));
    }
    return value[key];
  }

  /* A direction's name; ``strict`` as Python's _DIRECTIONS[d] (an unknown
     one fails), else as _DIRECTIONS.get(d, d). */
  function direction(d, strict) {
    if (DIRECTIONS.has(d)) return DIRECTIONS.get(d);
    if (strict) throw new TypeError("no direction " + compact(d));
    return d;
  }

  function space(view, id) {
    if (id === view.board.garage) return "the garage";
    if (view.board.arrivals.includes(id)) return "arrival space " + id;
    return "space " + id + (view.board.light.spaces.includes(id) ? " (traffic light)" : "");
  }

  /* text_view.py's CicloviaTextView: each offered action's meaning and what
     each step did. It moves no piece for a seat at a roll, so its
     engineMoves is the frame's empty set. */
  class View extends engines.TextView {
    describeAction(action, state) {
      if (typeof action !== "object" || action === null) throw new TypeError("not an action: " + compact(action));
      if ("step" in action) return "step " + direction(at(action, "step"), true) + " to " + space(this, at(action, "to"));
      if ("take" in action) {
        return "take the " + at(action, "colour") + " " + at(action, "value") + " from block " + at(action, "take");
      }
      // Python's action.get(key): a value's truth is Python's for the JSON true the engine offers.
      if (action.stay) return "stay where you are (do not move this turn)";
      if (action.reverse) return "turn round on the spot (uses a step)";
      if (action.leave) return "take no more dice here";
      if (action.stop) return "end the move here";
      return compact(action);
    }

    describeEffect(effect, state) {
      const cause = at(effect, "cause");
      const rider = "rider" in effect ? effect.rider : null;
      const says = this.says.bind(this);
      if (cause === "step") {
        return says(rider, "rides") + " " + direction(at(effect, "dir"), false) + " from " + at(effect, "from") +
          " to " + space(this, at(effect, "to"));
      }
      if (cause === "take") {
        return says(rider, "takes") + " the " + at(effect, "colour") + " " + at(effect, "value") + " from block " +
          at(effect, "block") + " (" + at(effect, "points") + " points" + (effect.doubled ? ", doubled" : "") + ")";
      }
      if (cause === "leave" || cause === "stay" || cause === "stop") {
        // Python builds all three lines, then picks one (so a missing space fails every cause).
        return {leave: says(rider, "takes") + " no more dice", stay: says(rider, "stays") + " put",
                stop: says(rider, "stops") + " on " + at(effect, "space")}[cause];
      }
      if (cause === "reverse") return says(rider, "turns") + " round, now facing " + direction(at(effect, "facing"), false);
      if (cause === "arrive") return says(rider, "arrives") + (effect.first ? " first" : "");
      if (cause === "light") return says(rider, "reaches") + " the traffic light first";
      if (cause === "roll") {
        return "dice rolled onto the blocks: " + at(effect, "dice").map((d) =>
          "block " + at(d, "block") + " " + at(d, "colour") + " " + at(d, "value")).join(", ");
      }
      if (cause === "shuffle") return null;  // the roll that follows says where each die landed
      if (cause === "end") return "the game ends (" + at(effect, "ending") + "): scores " + at(effect, "scores").map(String).join(", ");
      if (cause === "retire") return says(rider, "is") + " out of the game";
      return compact(effect);
    }
  }

  engines.ciclovia = {initial: initial, apply: apply, legalActions: legalActions, View: View};
})(typeof window !== "undefined" ? window : globalThis);
