// The transport for a JSON-RPC 2.0 server of the json-rpc-2.0 library: one JSON message per line on stdin and
// stdout (docs/wire.md, protocol 2.0). Requests are handled one at a time, in the order they come: the oracle
// may send the next request before the answer to the previous one, and expects the game to change in order.

import { createInterface } from "node:readline";
import { JSONRPCErrorException } from "json-rpc-2.0";

/** Answer each line of stdin with the server's response until `stopped()` or the end of the input. */
export async function serveLines(server, stopped = () => false) {
  const write = process.stdout.write.bind(process.stdout);
  console.log = console.error; // only protocol messages on stdout
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    const response = await server.receiveJSON(line);
    if (response !== null && !write(JSON.stringify(response) + "\n")) {
      await new Promise((resolve) => process.stdout.once("drain", resolve));
    }
    if (stopped()) break;
  }
  lines.close();
}

/** Errors as the oracle reads them (set as the server's mapErrorToJSONRPCErrorResponse): its name in error.data, with the exception's type and where it was thrown. */
export function mapError(id, error) {
  if (error instanceof JSONRPCErrorException) return { jsonrpc: "2.0", id, error: error.toObject() };
  const where = String(error?.stack ?? "").split("\n").find((line) => line.trim().startsWith("at "));
  const data = { name: "engine_error", exception: error?.name ?? "Error" };
  if (where) data.where = where.trim().replace(/^at /, "");
  return { jsonrpc: "2.0", id, error: { code: -32000, message: String(error?.message ?? error), data } };
}
