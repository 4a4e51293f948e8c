// A tiny helper for writing an arena bot in JavaScript (node): copy this file
// beside your bot. It speaks protocol version 1 (see ../PROTOCOL.md) and calls
// your function for every decision.
//
//     const { run } = require("./arena_bot.js");
//
//     run("first_choice", ["slyyde"], (state, actions, timeoutMs, random) => actions[0]);
//
// Your function gets the state, the offered actions, the time it has in
// milliseconds and `random`, a function returning numbers in [0, 1) from a
// generator seeded from each game's seed (use it and your bot plays the same
// game the same way every time). Return one of the offered actions, or a
// Promise of one if you need to await something. Pass `onUpdate` as a fourth
// argument to ask for, and receive, every event of the game.
//
// Put the helper in a folder bot: `bots/my_bot/` holding `bot.json` with
// {"command": ["node", "bot.js"]}, your `bot.js` and this file. (A bot that is
// a single `.js` file in the bots folder has only that file in its box, so it
// cannot require this one.)

"use strict";

const readline = require("readline");

// mulberry32: a small seeded generator returning numbers in [0, 1).
function seededRandom(seed) {
  let state = seed >>> 0;
  return function random() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Seeds go up to 2**63 - 1, beyond what a JavaScript number holds exactly;
// JSON.parse rounds them the same way every time, so folding the two halves
// still gives one generator per seed.
function foldSeed(seed) {
  const number = Number(seed) || 0;
  const high = Math.floor(number / 4294967296) >>> 0;
  const low = (number % 4294967296) >>> 0;
  return (low ^ Math.imul(high, 0x9e3779b1)) >>> 0;
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// Answer the referee until it says bye or closes our input. Messages are
// handled one at a time, in order, even when `choose` returns a Promise.
function run(name, games, choose, onUpdate) {
  let random = seededRandom(0);
  const wantUpdates = typeof onUpdate === "function";
  const input = readline.createInterface({ input: process.stdin, terminal: false });
  let queue = Promise.resolve();

  async function handle(message) {
    switch (message.type) {
      case "hello":
        send({ type: "hello", name, games, updates: wantUpdates });
        break;
      case "game_start":
        random = seededRandom(foldSeed(message.seed));
        break;
      case "decide": {
        const action = await choose(message.state, message.actions, message.timeout_ms, random);
        send({ type: "action", action });
        break;
      }
      case "update":
        if (wantUpdates) {
          await onUpdate(message.event);
        }
        break;
      case "bye":
        input.close();
        break;
      default:
        break; // game_end and anything newer: information only
    }
  }

  input.on("line", (line) => {
    if (!line.trim()) {
      return;
    }
    const message = JSON.parse(line);
    queue = queue.then(() => handle(message)).catch((error) => {
      process.stderr.write(`arena_bot.js: ${error && error.stack ? error.stack : error}\n`);
      process.exit(1);
    });
  });
  input.on("close", () => {
    queue.then(() => process.exit(0));
  });
}

module.exports = { run, seededRandom };
