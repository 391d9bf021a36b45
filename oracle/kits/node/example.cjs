// The first step of an engine, from CommonJS: the set-up of The Vale of Eternity, nothing more.
//
// It seats the players, gives them 1, 2, 3, 4 points from the first player clockwise (SETUP-2), lays the deck as
// given and reveals twice as many cards as there are players into the display (HUNT-1). It declares "export"
// only, so `oracle check --impl 'cmd:node example.cjs' --suite setup` passes and every other check is reported
// unsupported. Grow it from here, one capability at a time; example.mjs shows export and load on a store. Once
// apply plays, give serve() clone() and restore(saved) too and the kit answers try_actions for you: the oracle
// then judges many actions in one request (docs/wire.md).
"use strict";

const { serve, Unsupported, cards } = require("./vale-wire.cjs");

let game = null;

function newGame(setup) {
  const players = setup.players;
  const first = setup.first_player ?? 0;
  if (!Number.isInteger(players) || players < 2 || players > 4) throw new Error(`setup.players: 2 to 4, got ${players}`);
  console.log(`example: a ${players}-player game of ${cards.length} known cards (console.log goes to stderr)`);
  const deck = [...setup.deck];
  const display = deck.splice(0, 2 * players);
  const scores = Array.from({ length: players }, (_, seat) => ((seat - first + players) % players) + 1);
  game = {
    setup: {
      players, rounds: setup.rounds ?? 10, end_score: setup.end_score ?? 60,
      expansion: false, artifacts: false, variants: setup.variants ?? {},
    },
    first, scores, display, drawPile: deck,
  };
  return [
    { type: "game_started", players, first_player: first },
    { type: "phase_started", phase: "hunting", round: 1 },
    { type: "cards_revealed", cards: display },
  ];
}

function decision() {
  return { kind: "hunt_pick", player: game.first, prompt: "place a marker on a display card" };
}

function exportState() {
  return {
    format: "vale-oracle/snapshot/1",
    setup: game.setup,
    round: 1, phase: "hunting", first_player: game.first, turn_player: null, actives_used: [],
    players: game.scores.map((score) => ({
      score, hand: [], area: [], stones: { red: 0, blue: 0, purple: 0 }, markers: [],
    })),
    display: [...game.display].sort(), draw_pile: game.drawPile, discard_pile: [], winners: [],
    pending: decision(), private: {},
  };
}

serve({
  handshake: () => ({
    engine: "starter-kit example (set-up only, CommonJS)", version: "0.1.0", players: [2, 3, 4],
    expansion: false, artifacts: false, capabilities: ["export"],
  }),
  newGame,
  decision,
  apply: () => { throw new Unsupported("this example plays only the set-up"); },
  export: exportState,
});
