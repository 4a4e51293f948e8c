/* Runs a game's replay engine for the browser (GameSpec.engine_js) on the
   records tests/test_engines_js.py wrote, and says where it first differs
   from the Python engine and text view.
   node engines_check.js CASES SCRIPT...: CASES is a file of JSON lines, one
   game each: {game, players, options, board, names, you, events, digest,
   states, words} (states[0] the initial state, states[k] the state after event
   k - 1, words[k - 1] its words). SCRIPT... are loaded in order in one
   context (arena/games/text_view.js, then the game's engine.js). Prints one
   JSON line per game: {ok: true} or {ok: false, step, what, expected, got}.
   Before each decision, the engine's legalActions must give the actions
   the record says were offered, and their digest the record's (digest). */
"use strict";
const fs = require("fs");
const vm = require("vm");

const [casesFile, ...scripts] = process.argv.slice(2);
const context = vm.createContext({});
context.window = context;
for (const script of scripts) vm.runInContext(fs.readFileSync(script, "utf8"), context, {filename: script});

/* The first place where two JSON values differ (key order aside), as a path; null where they are equal. */
function difference(expected, got, path) {
  if (expected === null || typeof expected !== "object") {
    return Object.is(expected, got) || (expected === got) ? null : path;
  }
  if (got === null || typeof got !== "object" || Array.isArray(expected) !== Array.isArray(got)) return path;
  if (Array.isArray(expected)) {
    if (expected.length !== got.length) return path + ".length";
    for (let i = 0; i < expected.length; i++) {
      const found = difference(expected[i], got[i], path + "[" + i + "]");
      if (found) return found;
    }
    return null;
  }
  const keys = new Set([...Object.keys(expected), ...Object.keys(got)]);
  for (const key of keys) {
    if (!(key in expected) || !(key in got)) return path + "." + key;
    const found = difference(expected[key], got[key], path + "." + key);
    if (found) return found;
  }
  return null;
}

function check(record) {
  const engine = context.ArenaEngines[record.game];
  if (!engine) return {ok: false, step: null, what: "no engine registered for " + record.game};
  const view = new engine.View(record.board, record.names, record.you);
  // A state as JSON text and back: what a page gets, and no object shared with the engine's next step.
  const plain = (value) => JSON.parse(JSON.stringify(value));
  let state;
  try {
    state = plain(engine.initial(record.players, record.options, record.board));
  } catch (error) {
    return {ok: false, step: 0, what: "initial threw: " + error.stack};
  }
  let where = difference(record.states[0], state, "state");
  const offeredLists = [];
  if (where) return {ok: false, step: 0, what: where, expected: record.states[0], got: state};
  for (let k = 0; k < record.events.length; k++) {
    const event = record.events[k];
    const before = state;
    const frozen = JSON.stringify(before);
    if (event.kind === "decision") {
      let offered;
      try {
        offered = plain(engine.legalActions(before, record.board));
      } catch (error) {
        return {ok: false, step: k + 1, what: "legalActions threw: " + error.stack, event: event};
      }
      offeredLists.push(offered);
      where = difference(event.offered, offered, "offered");
      if (where) return {ok: false, step: k + 1, what: where, event: event, got: offered};
      if (JSON.stringify(before) !== frozen) return {ok: false, step: k + 1, what: "legalActions changed the state"};
    }
    let after;
    try {
      after = plain(engine.apply(before, event, record.board));
    } catch (error) {
      return {ok: false, step: k + 1, what: "apply threw: " + error.stack, event: event};
    }
    if (JSON.stringify(before) !== frozen) return {ok: false, step: k + 1, what: "apply changed the state it was given"};
    where = difference(record.states[k + 1], after, "state");
    if (where) return {ok: false, step: k + 1, what: where, event: event, expected: record.states[k + 1], got: after};
    let words;
    try {
      words = plain(view.step(before, event, after));
    } catch (error) {
      return {ok: false, step: k + 1, what: "step threw: " + error.stack, event: event};
    }
    where = difference(record.words[k], words, "words");
    if (where) return {ok: false, step: k + 1, what: where, event: event, expected: record.words[k], got: words};
    state = after;
  }
  const digest = context.ArenaEngines.util.offeredDigest(offeredLists);
  if (digest !== record.digest) return {ok: false, step: null, what: "digest", expected: record.digest, got: digest};
  return {ok: true};
}

const lines = fs.readFileSync(casesFile, "utf8").split("\n").filter(Boolean);
for (const line of lines) process.stdout.write(JSON.stringify(check(JSON.parse(line))) + "\n");
