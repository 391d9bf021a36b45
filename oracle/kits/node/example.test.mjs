// `node --test` runs the oracle's set-up checks and a few scenarios on the example engine, one test per check.
// In your repository: point `engine` at your adapter and drop the narrowing options to gate on every check.

import { oracleTests } from "./vale-node-test.mjs";

const here = new URL(".", import.meta.url).pathname;

await oracleTests({
  engine: `node ${here}example.mjs ${process.env.VALE_ORACLE_SERVE ?? "oracle serve"}`,
  oracle: process.env.VALE_ORACLE_COMMAND?.split(" ") ?? ["oracle"],
  args: (process.env.VALE_ORACLE_ARGS ?? "--suite setup --players 2").split(" "),
});
