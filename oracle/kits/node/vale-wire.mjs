// The Vale Oracle wire loop for Node.js engines: JSON lines on stdin/stdout, calling the functions you supply.
//
//   import { serve } from "./vale-wire.mjs";
//   serve({ handshake, newGame, decision, legalActions, apply, export: exportState, load });
//
// Every function is optional except handshake, newGame and decision; a missing one (or one that throws
// Unsupported) is answered "unsupported", any other exception "engine_error". Functions may be async.
//
// try_actions (the oracle's batch of "would you accept these?") can come for free: given clone() and restore(saved)
// (or export and load) besides apply, the kit answers each action by applying it and restoring the state. It
// declares the capability only when that is safe: at the handshake it plays one action of a game of its own and
// restores it, and declares try_actions only if the restore really restored (the state exported again equals the
// first export) and the first export was a copy (the apply did not change it). serve(engine, { tryActions })
// decides instead: true declares it without the check, false never declares it. Your own tryActions(actions), if
// you give one, is used (and declared unless tryActions is false).
// The protocol is docs/wire.md; stdout carries only protocol lines, so console.log is sent to stderr.
// Each request is answered in its own framing: JSON lines (1.x), or JSON-RPC 2.0 when it says "jsonrpc" (a
// batch gets a batch). Declare protocol "2.0" in your handshake and the oracle speaks JSON-RPC from then on.

import { createInterface } from "node:readline";
import { cards, checkOracleVersion } from "./vale-cards.mjs";

export const PROTOCOL = "1.1";
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** Throw this from a function your engine does not implement (yet). */
export class Unsupported extends Error {}

const FUNCTIONS = {
  handshake: ["handshake", []],
  new_game: ["newGame", ["setup"]],
  decision: ["decision", []],
  legal_actions: ["legalActions", []],
  apply: ["apply", ["action"]],
  export: ["export", []],
  load: ["load", ["snapshot"]],
};

/** The engine's save and restore for try_actions: clone() and restore(saved), else export and load; null without. */
function saveAndRestore(engine) {
  if (typeof engine.clone === "function" && typeof engine.restore === "function") return [engine.clone, engine.restore];
  if (typeof engine.export === "function" && typeof engine.load === "function") return [engine.export, engine.load];
  return null;
}

/** How this engine answers try_actions: its own tryActions, else apply between a save and a restore, else not. */
function trier(engine) {
  if (typeof engine.tryActions === "function") return (actions) => engine.tryActions(actions);
  const pair = saveAndRestore(engine);
  if (typeof engine.apply !== "function" || pair === null) return null;
  const [save, restore] = pair;
  return async (actions) => {
    const verdicts = [];
    for (const action of actions) {
      const saved = await save.call(engine);
      let result;
      try {
        result = await engine.apply(action);
      } finally {
        await restore.call(engine, saved);
      }
      verdicts.push(result?.accepted ? { accepted: true } : { accepted: false, rejection: result?.rejection });
    }
    return verdicts;
  };
}

/** JSON text with every object's keys sorted: two snapshots are deep-equal when their texts are. */
function canonical(value) {
  return JSON.stringify(value, (key, inner) => (inner && typeof inner === "object" && !Array.isArray(inner)
    ? Object.fromEntries(Object.keys(inner).sort().map((name) => [name, inner[name]])) : inner));
}

/** A set-up of the base game for the self-check: the fewest players the engine plays, the cards in the kit's order. */
function checkSetup(shake) {
  const deck = cards.filter((card) => card.set === "base").map((card) => card.id);
  return deck.length ? { players: Math.min(...shake.players), first_player: 0, deck } : null;
}

/** The first action of the self-check's game: the engine's first legal action, else a pick of the first card shown. */
async function firstAction(engine, snapshot) {
  if (typeof engine.legalActions === "function") return (await engine.legalActions())?.[0] ?? null;
  const pending = await engine.decision();
  const card = snapshot?.display?.[0];
  return pending?.kind === "hunt_pick" && card ? { type: "pick", player: pending.player, card } : null;
}

/** Why a restore by the kit would not restore this engine ('' when it does): a game of its own, exported, one
 *  action applied between a save and a restore, exported again; both exports must equal the first as it was. */
async function restoreProblem(engine, shake) {
  const [save, restore] = saveAndRestore(engine);
  if (typeof engine.export !== "function") return "the engine has no export to compare the states with";
  const setup = checkSetup(shake);
  if (setup === null) return "no cards.json to set up a game with";
  try {
    await engine.newGame(setup);
    const first = await engine.export();
    const before = canonical(first);
    const action = await firstAction(engine, first);
    if (action === null) return "no action to try at the first decision";
    const saved = await save.call(engine);
    const result = await engine.apply(action);
    if (!result?.accepted) return `the first legal action ${canonical(action)} was refused`;
    if (canonical(first) !== before) return "export() returned the live state, not a copy: an apply changed it";
    await restore.call(engine, saved);
    if (canonical(await engine.export()) !== before) return "the state restored after an apply is not the state saved";
    return "";
  } catch (error) {
    return `the check raised ${error?.name ?? "Error"}: ${error?.message ?? error}`;
  }
}

/** The handshake with try_actions declared or not (option tryActions: true, false, or "check", the default). */
async function withTryActions(shake, engine, state, option) {
  const own = shake.capabilities.filter((name) => name !== "try_actions");
  state.tryActions = option === false ? null : trier(engine);
  let problem = state.tryActions ? "" : "it needs tryActions(), or apply with clone() and restore() (or export and load)";
  if (!problem && option !== true && typeof engine.tryActions !== "function" && !shake.capabilities.includes("try_actions")) {
    problem = await restoreProblem(engine, shake);
  }
  if (option === false || problem) {
    if (option !== false) console.error(`vale-wire: try_actions not declared: ${problem}`);
    state.tryActions = null;
    return { ...shake, capabilities: own };
  }
  return { ...shake, capabilities: [...own, "try_actions"] };
}

async function tryActions(actions, state) {
  if (!state.tryActions || !state.handshake?.capabilities.includes("try_actions")) {
    throw new Unsupported("try_actions was not declared (serve(engine, { tryActions }) and the start-up check decide)");
  }
  if (!Array.isArray(actions)) throw Object.assign(new Error("try_actions: params.actions must be a list"), { badRequest: true });
  return await state.tryActions(actions);
}

function errorAnswer(id, error) {
  if (error instanceof Unsupported) {
    return { id, error: { code: "unsupported", message: error.message || "not implemented by this engine" } };
  }
  const where = String(error?.stack ?? "").split("\n").find((line) => line.trim().startsWith("at "));
  const out = { code: "engine_error", message: String(error?.message ?? error), exception: error?.name ?? "Error" };
  if (where) out.where = where.trim().replace(/^at /, "");
  return { id, error: out };
}

function badRequest(message, rpcCode) {
  return Object.assign(new Error(message), { badRequest: true, rpcCode });
}

// JSON-RPC 2.0 error codes: the specification's for protocol faults, the oracle's own for its names.
export const RPC_CODES = {
  parse_error: -32700, invalid_request: -32600, method_not_found: -32601, invalid_params: -32602,
  engine_error: -32000, unsupported: -32001, bad_request: -32002,
};

// The two framings: an answer in the 1.x form, written as each one's envelope.
const FRAMINGS = {
  lines: (answer) => answer,
  jsonrpc: ({ id, result, error, rpcCode }) => {
    if (!error) return { jsonrpc: "2.0", id, result };
    const { code, message, ...details } = error;
    return { jsonrpc: "2.0", id, error: { code: rpcCode ?? RPC_CODES[code], message, data: { name: code, ...details } } };
  },
};

function framingOf(request) {
  return Array.isArray(request) || (request !== null && typeof request === "object" && "jsonrpc" in request)
    ? "jsonrpc" : "lines";
}

async function call(engine, method, params) {
  const [name, args] = FUNCTIONS[method];
  if (typeof engine[name] !== "function") throw new Unsupported(`${name}() is not implemented`);
  return await engine[name](...args.map((arg) => params[arg]));
}

function withDefaults(shake) {
  const out = {
    protocol: PROTOCOL, engine: "unnamed JavaScript engine", version: "0", players: [2, 3, 4],
    expansion: false, artifacts: false, capabilities: [], variants: {}, ...shake,
  };
  const [major, minor] = String(out.protocol).split(".").map(Number);
  if (((major === 1 && minor >= 1) || major === 2) && !out.capabilities.includes("observe")) {
    out.capabilities = [...out.capabilities, "observe"];
  }
  return out;
}

async function answer(engine, request, state) {
  const params = request.params ?? {};
  switch (request.method) {
    case "handshake":
      checkOracleVersion(params);
      state.handshake = await withTryActions(withDefaults(await call(engine, "handshake", params)), engine, state,
        state.options.tryActions ?? "check");
      return state.handshake;
    case "try_actions":
      return await tryActions(params.actions, state);
    case "observe": {
      if (!state.handshake?.capabilities.includes("observe")) throw new Unsupported("observe was not declared");
      const out = { decision: (await call(engine, "decision", params)) ?? null };
      if (params.legal_actions) out.legal_actions = out.decision === null ? [] : await call(engine, "legal_actions", {});
      if (params.snapshot) out.snapshot = await call(engine, "export", {});
      return out;
    }
    case "quit":
      state.running = false;
      return null;
    default: {
      if (!(request.method in FUNCTIONS)) {
        throw badRequest(`unknown method ${JSON.stringify(request.method)}`, RPC_CODES.method_not_found);
      }
      const result = await call(engine, request.method, params);
      return result === undefined ? null : result;
    }
  }
}

function parse(line) {
  if (Buffer.byteLength(line) > MAX_LINE_BYTES) throw badRequest("request line too long", RPC_CODES.invalid_request);
  try {
    return JSON.parse(line);
  } catch {
    throw badRequest("the request line is not JSON", RPC_CODES.parse_error);
  }
}

/** One request's answer, in the request's framing. */
async function respond(engine, request, state, framingName = framingOf(request)) {
  const framing = FRAMINGS[framingName];
  const id = request?.id ?? null;
  try {
    if (request === null || typeof request !== "object") throw badRequest("the request is not a JSON object", RPC_CODES.invalid_request);
    return framing({ id, result: await answer(engine, request, state) });
  } catch (error) {
    if (error?.badRequest) return framing({ id, error: { code: "bad_request", message: error.message }, rpcCode: error.rpcCode });
    return framing(errorAnswer(id, error));
  }
}

async function answerBatch(engine, requests, state) {
  if (requests.length === 0) throw badRequest("the batch is empty", RPC_CODES.invalid_request);
  const answers = [];
  for (const request of requests) answers.push(await respond(engine, request, state, "jsonrpc"));
  return answers;
}

/** Answer requests from stdin until "quit" or the end of the input. Options: input, output, and tryActions (true:
 *  declare try_actions, answered by a save, apply and restore, without the start-up check; false: never declare
 *  it; "check", the default: declare it if the start-up check finds that a restore restores). */
export async function serve(engine, { input = process.stdin, output = process.stdout, tryActions = "check" } = {}) {
  if (![true, false, "check"].includes(tryActions)) {
    throw new TypeError(`serve(engine, { tryActions }): true, false or "check", not ${JSON.stringify(tryActions)}`);
  }
  const write = output.write.bind(output);
  if (output === process.stdout) {
    // Only protocol lines on stdout: whatever the engine prints goes to stderr.
    console.log = console.error;
    console.info = console.error;
    process.stdout.write = process.stderr.write.bind(process.stderr);
  }
  const state = { running: true, handshake: null, framing: "lines", options: { tryActions } };
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    let response;
    try {
      const request = parse(line);
      state.framing = framingOf(request);
      response = Array.isArray(request) ? await answerBatch(engine, request, state) : await respond(engine, request, state);
    } catch (error) {
      response = FRAMINGS[state.framing]({ id: null, error: { code: "bad_request", message: error.message }, rpcCode: error.rpcCode });
    }
    let text = JSON.stringify(response);
    if (Buffer.byteLength(text) > MAX_LINE_BYTES) {
      text = JSON.stringify(FRAMINGS[state.framing](
        errorAnswer(response?.id ?? null, new Error(`the answer would be longer than ${MAX_LINE_BYTES} bytes`))));
    }
    if (!write(text + "\n")) {
      await new Promise((resolve) => output.once("drain", resolve));
    }
    if (!state.running) break;
  }
  lines.close();
}
