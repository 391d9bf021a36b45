// An example engine for the starter kit whose state lives in a small in-memory store, as a UI's or a
// Redux-style engine's does, and which implements export and load by mapping that store to the oracle's
// snapshot field by field (docs/wire.md, "Writing export and load").
//
// The rules are not written here: every step is asked of the reference engine, served by `oracle serve` in a
// child process (the command is this program's arguments, `oracle serve` by default). The child is given the
// store's snapshot (this engine's own export), the action, and asked for its export, which this engine loads
// into the store (its own load): so every step exercises the mapping both ways, and the default
// `oracle check --impl 'cmd:node example.mjs'` runs every check (docs/wire.md says how long it takes).
// Replace askReference() with your engine's rules and keep the mapping.

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { cardData } from "./vale-cards.mjs";
import { serve, Unsupported } from "./vale-wire.mjs";

const FORMAT = "vale-oracle/snapshot/1";
const STONE_VALUES = cardData?.stone_values ?? { red: 1, blue: 3, purple: 6 };

// ---------------------------------------------------------------------------------------------- the store

/** The engine's state, in its own names and shapes (seats, market, deck, ...), as a UI would keep it. */
let store = null;

/** Derived state: never in a snapshot, recomputed from the stored fields after every change. */
function recompute(state) {
  for (const seat of state.seats) {
    seat.stoneValue = Object.entries(seat.stones).reduce((sum, [colour, n]) => sum + n * STONE_VALUES[colour], 0);
  }
  state.gameOver = state.phase === "game_over";
  return state;
}

/** load: the snapshot, field by field, into the store. A field the engine could not represent is refused with
 *  Unsupported (this store represents all of them; the reference's bookkeeping is kept as it came). */
function loadSnapshot(snapshot) {
  if (snapshot.format !== undefined && snapshot.format !== FORMAT) throw new Unsupported(`snapshot format ${snapshot.format}`);
  const setup = snapshot.setup;
  store = recompute({
    config: {
      playerCount: setup.players, rounds: setup.rounds ?? 10, endScore: setup.end_score ?? 60,
      expansion: setup.expansion ?? false, artifacts: setup.artifacts ?? false, variants: { ...(setup.variants ?? {}) },
      advancedTiles: setup.advanced_tiles ?? null,
    },
    round: snapshot.round,
    phase: snapshot.phase,
    firstSeat: snapshot.first_player,
    activeSeat: snapshot.turn_player,
    usedActives: new Set(snapshot.actives_used ?? []),
    seats: snapshot.players.map((player) => ({
      points: player.score,
      hand: [...player.hand],
      tableau: [...player.area],
      stones: { red: player.stones.red ?? 0, blue: player.stones.blue ?? 0, purple: player.stones.purple ?? 0 },
      markers: [...player.markers],
      shelter: [...(player.shelter ?? [])],
      extraAreas: player.extra_areas ?? 0,
      artifact: player.artifact ?? null,
    })),
    market: [...snapshot.display],
    deck: [...snapshot.draw_pile],
    discards: [...snapshot.discard_pile],
    winners: [...(snapshot.winners ?? [])],
    prompt: snapshot.pending ?? null,
    tiles: snapshot.artifacts ? { market: [...snapshot.artifacts.display], squares: { ...snapshot.artifacts.square_markers } } : null,
    rulesMemo: snapshot.private ?? {},
  });
}

const sorted = (cards) => [...cards].sort();

/** export: the store, field by field, as the oracle's snapshot (card lists in the orders the snapshot names). */
function exportSnapshot() {
  if (store === null) throw new Error("no game: new_game or load first");
  const { config } = store;
  const snapshot = {
    format: FORMAT,
    setup: {
      players: config.playerCount, rounds: config.rounds, end_score: config.endScore, expansion: config.expansion,
      artifacts: config.artifacts, variants: { ...config.variants },
      ...(config.advancedTiles ? { advanced_tiles: [...config.advancedTiles] } : {}),
    },
    round: store.round,
    phase: store.phase,
    first_player: store.firstSeat,
    turn_player: store.activeSeat,
    actives_used: sorted(store.usedActives),
    players: store.seats.map((seat) => ({
      score: seat.points, hand: sorted(seat.hand), area: sorted(seat.tableau), stones: { ...seat.stones },
      markers: sorted(seat.markers),
      ...(config.artifacts ? { shelter: sorted(seat.shelter), extra_areas: seat.extraAreas, artifact: seat.artifact } : {}),
    })),
    display: sorted(store.market),
    draw_pile: [...store.deck],
    discard_pile: sorted(store.discards),
    winners: [...store.winners],
    pending: store.prompt,
    private: store.rulesMemo,
  };
  if (store.tiles) snapshot.artifacts = { display: sorted(store.tiles.market), square_markers: { ...store.tiles.squares } };
  return snapshot;
}

// ---------------------------------------------------------------------------------------------- the rules

const SERVE = process.argv.length > 2 ? process.argv.slice(2) : ["oracle", "serve"];
const reference = startReference();  // at once: a Python process takes a while to start

/** The served reference: one JSON line per request, the answers in order (docs/wire.md). */
function startReference() {
  const child = spawn(SERVE[0], SERVE.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  const waiting = [];
  let broken = null;
  const fail = (error) => {
    broken ??= error;
    waiting.splice(0).forEach(({ reject }) => reject(broken));
  };
  child.on("error", (error) => fail(new Error(`cannot run \`${SERVE.join(" ")}\` (${error.message}): this example `
    + "asks the reference for the rules; put `oracle` on PATH or give the command that serves it as arguments")));
  child.on("exit", (code) => fail(new Error(`\`${SERVE.join(" ")}\` exited (status ${code})`)));
  child.stdin.on("error", () => {});  // a child that died is reported by "exit"
  createInterface({ input: child.stdout }).on("line", (line) => waiting.shift()?.resolve(JSON.parse(line)));
  let nextId = 0;
  return {
    /** Close the child's input: `oracle serve` exits, and so can this process. */
    close: () => child.stdin.end(),
    /** Send the requests in one write and return their results; an error answer is thrown. */
    async ask(...requests) {
      if (broken) throw broken;
      const answers = requests.map(() => new Promise((resolve, reject) => waiting.push({ resolve, reject })));
      child.stdin.write(requests.map(([method, params]) => JSON.stringify({ id: ++nextId, method, params }) + "\n").join(""));
      return (await Promise.all(answers)).map((answer) => {
        if (!answer.error) return answer.result;
        throw answer.error.code === "unsupported" ? new Unsupported(answer.error.message) : new Error(answer.error.message);
      });
    },
  };
}

/** The store's snapshot (this engine's export) and the requests, in one write; the requests' results. */
async function askReference(...requests) {
  const results = await reference.ask(["load", { snapshot: exportSnapshot() }], ...requests);
  return results.slice(1);
}

/** The reference's state after the requests, into the store (this engine's load); the last request's result. */
async function stepReference(...requests) {
  const results = await reference.ask(...requests, ["export", {}]);
  loadSnapshot(results.at(-1));
  return results.at(-2);
}

await serve({
  // Waits for the reference to start, so that the start-up deadline (--start-timeout) covers it.
  handshake: async () => {
    await reference.ask(["handshake", {}]);
    return {
      engine: "starter-kit example (a store; the rules served by the reference)", version: "0.2.0",
      players: [2, 3, 4], expansion: true, artifacts: true, capabilities: ["legal_actions", "export", "load", "events"],
    };
  },
  newGame: (setup) => stepReference(["new_game", { setup }]),
  decision: () => store?.prompt ?? null,
  legalActions: async () => (await askReference(["legal_actions", {}]))[0],
  apply: (action) => stepReference(["load", { snapshot: exportSnapshot() }], ["apply", { action }]),
  export: exportSnapshot,
  // A snapshot may leave out what the rules derive (the pending decision of a scenario's position): the reference
  // completes it, and the store takes the completed snapshot.
  load: (snapshot) => stepReference(["load", { snapshot }]).then(() => null),
});
reference.close();
