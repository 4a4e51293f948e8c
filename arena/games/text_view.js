/* The frame of every game's replay engine for the browser: the game's own
   engine and text view (arena/games/<game>/), made again in JavaScript so
   that a page can rebuild a game's states and words from its record (the
   events) alone, and a replay need not carry them.

   A game's engine.js (GameSpec.engine_js) registers
     ArenaEngines[game] = {
       initial(players, options, board)  the state before the first event:
                                         GAME.new_state(players, options).to_json()
       apply(state, event, board)        the state after the event, a new
                                         object (the argument is left as it
                                         was): the state after apply_chance,
                                         apply_action or retire, to_json()
       legalActions(state, board)        the actions offered to the seat to
                                         decide in ``state``, in order:
                                         state.legal_actions() (what the
                                         referee offers), so that a record
                                         need not carry them
       View                              the game's text view, a subclass
                                         of ArenaEngines.TextView (below)
     }
   where ``board`` is the game's board data (Game.board, as the site's
   data/board-<game>.js carries it) and states and events are the JSON that
   the referee's engine writes (arena.games.events). ``apply`` throws an
   Error on an event the state does not admit, as the engine raises
   IllegalAction. Both must equal the Python engine and text view on every
   step: tests/test_engines_js.py compares them on seeded random games of
   every player count and option set, retirements included.

   ArenaEngines.util holds what the engines share, as arena/games/base.py
   and events.py hold it for the Python engines: applyEvent (one step of
   the replay), checkOffered (apply_action's check), pyEqual, pyItem and
   pyMod (Python's ==, list indexing and %), perBoard (tables derived once
   per board).

   ArenaEngines.TextView is arena/games/text_view.py's TextView, the parts a
   step's words need: a game's View overrides describeAction(action, state),
   describeEffect(effect, state), and sets engineMoves (a Set of effect
   causes), as the Python subclass does. */
(function (global) {
  "use strict";
  const engines = global.ArenaEngines = global.ArenaEngines || {};
  const MARKS = "ABCD";
  // Third-person verbs whose second person is not the verb less its "s".
  const IRREGULAR = {has: "have", is: "are", does: "do", was: "were"};

  /* json.dumps(value, separators=(",", ":")) for the values a state holds
     (Python escapes every character past ASCII; so does this). */
  function compact(value) {
    return JSON.stringify(value).replace(/[\u0080-\uffff]/g, function (c) {
      return "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0");
    });
  }

  /* JSON with every object's keys sorted, as json.dumps(value,
     sort_keys=True, separators=(",", ":")) writes it. */
  function canonical(value) {
    if (value === null || typeof value !== "object") return compact(value);
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    return "{" + Object.keys(value).sort().map(function (key) {
      return compact(key) + ":" + canonical(value[key]);
    }).join(",") + "}";
  }

  let crcTable = null;

  /* The digest of a game's offered actions, a list of each decision's
     list (arena.games.events.offered_digest): CRC-32 of their canonical
     JSON's bytes (ASCII), 8 hex digits. */
  function offeredDigest(offered) {
    if (crcTable === null) {
      crcTable = new Int32Array(256);
      for (let n = 0; n < 256; n++) {
        let c = n;
        for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        crcTable[n] = c;
      }
    }
    const text = canonical(offered);
    let crc = -1;
    for (let i = 0; i < text.length; i++) crc = crcTable[(crc ^ text.charCodeAt(i)) & 0xff] ^ (crc >>> 8);
    return ((crc ^ -1) >>> 0).toString(16).padStart(8, "0");
  }

  // ---------------------------------------------------------------- the engines' shared steps

  const CHANCE = -1;  // arena.games.base: current_player() where chance acts

  /* a == b as Python compares JSON values (base.State.apply_action's
     ``action not in legal_actions()``): a bool is the int 0 or 1, a dict's
     key order does not count. */
  function pyEqual(a, b) {
    if (a === b) return true;
    if (typeof a === "boolean") a = Number(a);
    if (typeof b === "boolean") b = Number(b);
    if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a)) {
      if (a.length !== b.length) return false;
      for (let k = 0; k < a.length; k++) if (!pyEqual(a[k], b[k])) return false;
      return true;
    }
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const key of keys) {
      if (!Object.prototype.hasOwnProperty.call(b, key) || !pyEqual(a[key], b[key])) return false;
    }
    return true;
  }

  /* sequence[index] as Python indexes a list: a negative index counts from
     the end; one out of range throws (Python's IndexError). */
  function pyItem(sequence, index) {
    if (!Array.isArray(sequence) || !Number.isInteger(index) || index < -sequence.length || index >= sequence.length) {
      throw new Error("no item " + compact(index) + " in " + compact(sequence));
    }
    return sequence[index < 0 ? index + sequence.length : index];
  }

  /* Python's a % n for n > 0: never negative (JavaScript's % keeps a's sign). */
  function pyMod(a, n) {
    return ((a % n) + n) % n;
  }

  /* ``derive(board)``, made once per board object: an engine's module
     tables, which Python derives from the same board data at import. */
  function perBoard(derive) {
    const made = new WeakMap();
    return function (board) {
      let found = made.get(board);
      if (found === undefined) {
        found = derive(board);
        made.set(board, found);
      }
      return found;
    };
  }

  /* base.State.apply_action's check, for an engine's state object
     (currentPlayer, legalActions): throws unless ``action`` is offered. */
  function checkOffered(state, action) {
    if (state.currentPlayer() < 0) throw new Error("no decision is due, got " + compact(action));
    if (!state.legalActions().some((legal) => pyEqual(legal, action))) {
      throw new Error("action not offered: " + compact(action));
    }
  }

  /* One step of arena/games/events.py's replay (_apply_event) on an
     engine's state object (currentPlayer, applyChance, retire,
     applyAction), for a decision as the referee recorded it (the actions
     offered and the index chosen); throws where Python raises
     IllegalAction. */
  function applyEvent(state, event) {
    if (event.kind === "chance") {
      if (state.currentPlayer() !== CHANCE) throw new Error("chance recorded where a decision is due");
      state.applyChance(event.values);
    } else if (event.kind === "retire") {
      state.retire(event.seat);
    } else {
      if (state.currentPlayer() !== event.seat) {
        throw new Error("seat " + event.seat + " recorded, seat " + state.currentPlayer() + " is to decide");
      }
      state.applyAction(pyItem(event.offered, event.chosen));
    }
  }

  /* A decision's or chance event's line made of its effects (empty without
     any), saying where the seat or the engine had no choice
     (text_view.effects_line). */
  function effectsLine(event, effects, forced) {
    if (!effects.length) return "";
    if (event.kind === "decision") return (forced ? "forced (the only move): " : "") + effects.join("; ");
    return effects.join("; ") + (forced ? " (forced: the only move)" : "");
  }

  class TextView {
    constructor(board, names, you) {
      this.board = board;
      // The same bot may play several seats: then its seat tells them apart.
      this.names = names.map(function (name, seat) {
        return names.filter(function (other) { return other === name; }).length > 1 ? name + " (seat " + seat + ")" : name;
      });
      this.you = you === undefined ? null : you;
      this.engineMoves = new Set();
    }

    seat(seat) {
      if (seat === null || seat === undefined) return "seat None";  // Python's f"seat {None}"
      if (!(seat >= 0 && seat < this.names.length)) return "seat " + seat;
      return this.names[seat];
    }

    /* The seat and a verb given in the third person, agreeing: "alpha rolls", "you roll". */
    says(seat, verb) {
      if (seat === null || seat === undefined || seat !== this.you) return this.seat(seat) + " " + verb;
      const space = verb.indexOf(" ");
      let first = space < 0 ? verb : verb.slice(0, space);
      const rest = space < 0 ? "" : verb.slice(space + 1);
      if (Object.prototype.hasOwnProperty.call(IRREGULAR, first)) first = IRREGULAR[first];
      else if (/(ches|shes|sses|xes|zes|oes)$/.test(first)) first = first.slice(0, -2);
      else if (first.endsWith("s")) first = first.slice(0, -1);
      return this.seat(seat) + " " + first + (rest ? " " + rest : "");
    }

    /* The seat's possessive: "alpha's", "your". */
    whose(seat) {
      return seat !== null && seat !== undefined && seat === this.you ? "your" : this.seat(seat) + "'s";
    }

    describeAction(action, state) { return compact(action); }

    describeEffect(effect, state) { return compact(effect); }

    /* What choosing ``action`` does, in words; an action the view cannot
       word (a TypeError reading it, as Python's KeyError, IndexError or
       TypeError) is shown as its JSON. */
    action(action, state) {
      try {
        return this.describeAction(action, state);
      } catch (error) {
        if (error instanceof TypeError) return compact(action);
        throw error;
      }
    }

    effects(state) {
      const lines = [];
      for (const effect of state.last || []) {
        let line;
        try {
          line = this.describeEffect(effect, state);
        } catch (error) {
          if (!(error instanceof TypeError)) throw error;
          line = compact(effect);
        }
        if (line) lines.push(line);
      }
      return lines;
    }

    /* Event ``event`` in words, from the state before it and the state after it. */
    step(before, event, after) {
      const effects = this.effects(after);
      if (event.kind === "decision") {
        const offered = event.offered.map((action) => this.action(action, before));
        const forced = offered.length === 1;
        const line = effectsLine(event, effects, forced) ||
          effectsLine(event, [this.says(event.seat, "chooses") + ": " + offered[event.chosen]], forced);
        return {line: line, effects: effects, offered: offered, forced: forced};
      }
      if (event.kind === "retire") {
        const line = this.says(event.seat, "forfeits") + " (" + event.reason.replace(/_/g, " ") + ") and " +
          (event.seat === this.you ? "are" : "is") + " out of the game";
        return {line: line, effects: effects, forced: false};
      }
      const forced = (after.last || []).some((effect) => this.engineMoves.has(effect.cause));
      const line = effectsLine(event, effects, forced) ||
        effectsLine(event, [event.purpose + ": " + event.values.join(" ")], forced);
      return {line: line, effects: effects, forced: forced};
    }
  }

  engines.TextView = TextView;
  engines.util = {compact: compact, offeredDigest: offeredDigest, effectsLine: effectsLine,
                  MARKS: MARKS, CHANCE: CHANCE, pyEqual: pyEqual, pyItem: pyItem, pyMod: pyMod,
                  perBoard: perBoard, checkOffered: checkOffered, applyEvent: applyEvent};
})(typeof window !== "undefined" ? window : globalThis);
