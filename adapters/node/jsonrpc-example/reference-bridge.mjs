// The JSON-RPC example's transport and library with a complete engine behind them: the reference, reached as
// a program would reach any engine it wraps (here `oracle serve`, in JSON lines, as a child process). The
// oracle's tests run the default `oracle check` through it (tests/test_wire_jsonrpc.py).
//
//   node reference-bridge.mjs [COMMAND ...]      (default: oracle serve)

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { JSONRPCErrorException, JSONRPCServer } from "json-rpc-2.0";
import { mapError, serveLines } from "./stdio.mjs";

const ORACLE_CODES = { engine_error: -32000, unsupported: -32001, bad_request: -32002 };
const METHODS = ["handshake", "new_game", "decision", "legal_actions", "try_actions", "apply", "export", "load", "observe", "quit"];

const [command, ...args] = process.argv.length > 2 ? process.argv.slice(2) : ["oracle", "serve"];
const engine = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const answers = createInterface({ input: engine.stdout, crlfDelay: Infinity })[Symbol.asyncIterator]();
let lastId = 0;

async function call(method, params) {
  lastId += 1;
  engine.stdin.write(JSON.stringify({ id: lastId, method, params: params ?? {} }) + "\n");
  const { value, done } = await answers.next();
  if (done) throw new Error(`the engine exited during ${method}`);
  const { result, error } = JSON.parse(value);
  if (!error) return method === "handshake" ? { ...result, protocol: "2.0" } : result;
  const { code, message, ...details } = error;
  throw new JSONRPCErrorException(message, ORACLE_CODES[code] ?? ORACLE_CODES.engine_error, { name: code, ...details });
}

const server = new JSONRPCServer({ errorListener: () => {} });
server.mapErrorToJSONRPCErrorResponse = mapError;
let running = true;
for (const method of METHODS) {
  server.addMethod(method, async (params) => {
    running = method !== "quit";
    return await call(method, params);
  });
}
await serveLines(server, () => !running);
engine.stdin.end();
