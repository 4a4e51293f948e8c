#!/usr/bin/env node
// Random bot in JavaScript: plays every game by choosing uniformly among the
// legal actions. Written from protocol/PROTOCOL.md alone, with no shared code,
// to show that the document is enough to write a bot in another language.
//
// The protocol: one JSON object per line on stdin and stdout. Answer "hello"
// (name and games) and "decide" (one of the offered actions, copied exactly);
// every other message is information. Leave on "bye" or at the end of input.
// Choices come from a small seeded generator, seeded from each game_start's
// seed, so the same game is played the same way every time.

"use strict";

const readline = require("readline");

// mulberry32: a tiny 32-bit generator; good enough for picking moves.
function generator(seed) {
  let state = seed >>> 0;
  return function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The seed may be larger than 2**53, so JSON.parse rounds it; folding both
// halves together still gives the same generator for the same seed.
function seedFrom(value) {
  const number = Number(value) || 0;
  const high = Math.floor(number / 4294967296) >>> 0;
  const low = (number % 4294967296) >>> 0;
  return (low ^ Math.imul(high, 0x9e3779b1)) >>> 0;
}

let random = generator(0);

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const input = readline.createInterface({ input: process.stdin, terminal: false });

input.on("line", (line) => {
  if (!line.trim()) {
    return;
  }
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      send({ type: "hello", name: "random_bot_js", games: message.games });  // every game arena has
      break;
    case "game_start":
      random = generator(seedFrom(message.seed));
      break;
    case "decide": {
      const actions = message.actions;
      const index = Math.min(actions.length - 1, Math.floor(random() * actions.length));
      send({ type: "action", action: actions[index] });
      break;
    }
    case "bye":
      input.close();
      break;
    default:
      break; // update, game_end and anything newer: information only
  }
});

input.on("close", () => {
  process.exit(0);
});
