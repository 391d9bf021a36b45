// A Vale Oracle wire engine built on a JSON-RPC library (json-rpc-2.0 from npm): protocol 2.0, docs/wire.md.
//
//   npm ci --prefix adapters/node/jsonrpc-example
//   oracle check --impl 'cmd:node adapters/node/jsonrpc-example/engine.mjs' --suite setup
//
// The library does the envelope (ids, "jsonrpc": "2.0", error objects, batches), stdio.mjs the transport (one
// JSON message per line on stdin/stdout, requests handled in order), this file the engine: the set-up of The
// Vale of Eternity (SETUP-2, HUNT-1), with export. A method with no handler (apply, legal_actions, load) is
// answered -32601 "Method not found", which the oracle reports as unsupported.

import { JSONRPCErrorException, JSONRPCServer } from "json-rpc-2.0";
import { mapError, serveLines } from "./stdio.mjs";

// The oracle's own error codes (docs/wire.md): the name in error.data, the code in the range JSON-RPC leaves
// to implementations.
const UNSUPPORTED = -32001;

let game = null;

function newGame(setup) {
  const players = setup.players;
  const first = setup.first_player ?? 0;
  if (!Number.isInteger(players) || players < 2 || players > 4) throw new Error(`setup.players: 2 to 4, got ${players}`);
  if ((setup.expansion ?? false) || (setup.artifacts ?? false)) {
    throw new JSONRPCErrorException("this engine plays the base game only", UNSUPPORTED, { name: "unsupported" });
  }
  const drawPile = [...setup.deck];
  const display = drawPile.splice(0, 2 * players);
  const scores = Array.from({ length: players }, (_, seat) => ((seat - first + players) % players) + 1);
  game = {
    setup: {
      players, rounds: setup.rounds ?? 10, end_score: setup.end_score ?? 60,
      expansion: false, artifacts: false, variants: setup.variants ?? {},
    },
    first, scores, display, drawPile,
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

const server = new JSONRPCServer({ errorListener: () => {} });
server.mapErrorToJSONRPCErrorResponse = mapError;

let running = true;
server.addMethod("handshake", () => ({
  protocol: "2.0", engine: "json-rpc-2.0 example (set-up only)", version: "0.1.0", players: [2, 3, 4],
  expansion: false, artifacts: false, capabilities: ["export"], variants: {},
}));
server.addMethod("new_game", ({ setup }) => newGame(setup));
server.addMethod("decision", () => decision());
server.addMethod("export", () => exportState());
server.addMethod("quit", () => {
  running = false;
  return null;
});

await serveLines(server, () => !running);
