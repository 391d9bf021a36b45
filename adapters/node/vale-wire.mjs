// The Vale Oracle wire loop for Node.js engines: JSON lines on stdin/stdout, calling the functions you supply.
//
//   import { serve } from "./vale-wire.mjs";
//   serve({ handshake, newGame, decision, legalActions, apply, export: exportState, load });
//
// Every function is optional except handshake, newGame and decision; a missing one (or one that throws
// Unsupported) is answered "unsupported", any other exception "engine_error". Functions may be async.
//
// try_actions (the oracle's batch of "would you accept these?") comes for free: give the kit clone() and
// restore(saved) (or export and load) besides apply, and it declares the capability and answers each action by
// applying it and restoring the state. Your own tryActions(actions), if you give one, is used instead.
// The protocol is docs/wire.md; stdout carries only protocol lines, so console.log is sent to stderr.

import { createInterface } from "node:readline";

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

/** How this engine answers try_actions: its own tryActions, else apply between a save and a restore, else not. */
function trier(engine) {
  if (typeof engine.tryActions === "function") return (actions) => engine.tryActions(actions);
  if (typeof engine.apply !== "function") return null;
  const [save, restore] = typeof engine.clone === "function" && typeof engine.restore === "function"
    ? [engine.clone, engine.restore] : [engine.export, engine.load];
  if (typeof save !== "function" || typeof restore !== "function") return null;
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

function withTryActions(shake, engine, state) {
  state.tryActions = trier(engine);
  if (state.tryActions && !shake.capabilities.includes("try_actions")) {
    return { ...shake, capabilities: [...shake.capabilities, "try_actions"] };
  }
  return shake;
}

async function tryActions(actions, state) {
  if (!state.tryActions || !state.handshake?.capabilities.includes("try_actions")) {
    throw new Unsupported("try_actions needs tryActions(), or clone() and restore() (or export and load)");
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
  if (major === 1 && minor >= 1 && !out.capabilities.includes("observe")) {
    out.capabilities = [...out.capabilities, "observe"];
  }
  return out;
}

async function answer(engine, request, state) {
  const params = request.params ?? {};
  switch (request.method) {
    case "handshake":
      state.handshake = withTryActions(withDefaults(await call(engine, "handshake", params)), engine, state);
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
        const error = new Error(`unknown method ${JSON.stringify(request.method)}`);
        error.badRequest = true;
        throw error;
      }
      const result = await call(engine, request.method, params);
      return result === undefined ? null : result;
    }
  }
}

/** Answer requests from stdin until "quit" or the end of the input. */
export async function serve(engine, { input = process.stdin, output = process.stdout } = {}) {
  const write = output.write.bind(output);
  if (output === process.stdout) {
    // Only protocol lines on stdout: whatever the engine prints goes to stderr.
    console.log = console.error;
    console.info = console.error;
    process.stdout.write = process.stderr.write.bind(process.stderr);
  }
  const state = { running: true, handshake: null };
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    let id = null;
    let response;
    try {
      if (Buffer.byteLength(line) > MAX_LINE_BYTES) throw Object.assign(new Error("request line too long"), { badRequest: true });
      let request;
      try {
        request = JSON.parse(line);
      } catch {
        throw Object.assign(new Error("the request line is not JSON"), { badRequest: true });
      }
      id = request.id ?? null;
      response = { id, result: await answer(engine, request, state) };
    } catch (error) {
      response = error?.badRequest ? { id, error: { code: "bad_request", message: error.message } } : errorAnswer(id, error);
    }
    const text = JSON.stringify(response);
    if (Buffer.byteLength(text) > MAX_LINE_BYTES) {
      response = errorAnswer(id, new Error(`the answer would be longer than ${MAX_LINE_BYTES} bytes`));
    }
    if (!write(JSON.stringify(response) + "\n")) {
      await new Promise((resolve) => output.once("drain", resolve));
    }
    if (!state.running) break;
  }
  lines.close();
}
