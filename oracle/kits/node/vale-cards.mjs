// The card data of the oracle that wrote this kit: cards.json, read once at start-up (no process spawned, no
// text parsing), and the check that the oracle running the engine is that same oracle.
//
//   import { cards, cardById, cardData } from "./vale-cards.mjs";
//
// `oracle kit node DIR` writes cards.json beside this file, stamped with the oracle's version
// (oracle/schemas/cards.schema.json); `oracle cards --json --expansion > cards.json` writes the same document.
// Without cards.json, `cards` is empty and no version is checked.

import { existsSync, readFileSync } from "node:fs";

const FILE = new URL("./cards.json", import.meta.url);

/** The whole document: format, oracle_version, stone_values, sell_values, cards, artifact_tiles (or null). */
export const cardData = existsSync(FILE) ? JSON.parse(readFileSync(FILE, "utf8")) : null;

/** Every card, base game and Artifacts expansion, in the oracle's order. */
export const cards = cardData?.cards ?? [];

const BY_ID = new Map(cards.map((card) => [card.id, card]));

/** The card with this id (base-fire-02), or undefined. */
export function cardById(id) {
  return BY_ID.get(id);
}

/** The handshake's check: the oracle sends its version (params.oracle_version); a kit written by another oracle
 *  would read other card data, so the engine refuses to start and says how to write the kit again. */
export function checkOracleVersion(params) {
  const running = params?.oracle_version;
  const written = cardData?.oracle_version;
  if (typeof running === "string" && typeof written === "string" && running !== written) {
    throw new Error(`this kit's cards.json was written by vale-oracle ${written} and the oracle checking the `
      + `engine is ${running}: write the kit again with \`oracle kit node DIR\` `
      + "(or the card data alone with `oracle cards --json --expansion > cards.json`)");
  }
}
