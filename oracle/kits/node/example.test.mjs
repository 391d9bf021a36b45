// `node --test` gates on every check of the oracle, one test per check, on the example engine.
// In your repository: point `engine` at your adapter, and keep a known-failures file for what is not done yet:
//   args: ["--expectations", "known-failures.toml"]  (each listed failure is reported as a todo test).
// VALE_ORACLE_ARGS narrows the run (`--suite setup --select 'setup/2p/*'`, split on spaces); the tests do so.

import { fileURLToPath } from "node:url";
import { oracleTests } from "./vale-oracle-checks.mjs";

const example = fileURLToPath(new URL("./example.mjs", import.meta.url));

await oracleTests({
  engine: `node '${example}'`,
  args: process.env.VALE_ORACLE_ARGS?.split(" ").filter(Boolean) ?? [],
});
