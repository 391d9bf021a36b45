// The kit from CommonJS (a .cjs adapter, or a package without "type": "module"), Node 18 or later:
//
//   const { serve, Unsupported, cards } = require("./vale-wire.cjs");
//   serve({ handshake, newGame, decision, apply });
//
// The wire loop itself is the ES module vale-wire.mjs, which serve() imports; this file only adapts it, so both
// forms behave alike. cards and cardData are cards.json, read at start-up as in vale-cards.mjs.
"use strict";

const { existsSync } = require("node:fs");
const { join } = require("node:path");

/** Throw this from a function your engine does not implement (yet): it is answered "unsupported". */
class Unsupported extends Error {}

const CARDS_FILE = join(__dirname, "cards.json");
const cardData = existsSync(CARDS_FILE) ? require(CARDS_FILE) : null;

/** The engine, each of its functions throwing the ES module's Unsupported where this file's was thrown. */
function withEsmUnsupported(engine, EsmUnsupported) {
  return new Proxy(engine, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== "function") return value;
      return async (...args) => {
        try {
          return await value.apply(target, args);
        } catch (error) {
          throw error instanceof Unsupported ? new EsmUnsupported(error.message) : error;
        }
      };
    },
  });
}

/** Answer the oracle's requests from stdin until "quit" (vale-wire.mjs's serve). */
async function serve(engine, options) {
  const kit = await import("./vale-wire.mjs");
  return kit.serve(withEsmUnsupported(engine, kit.Unsupported), options);
}

module.exports = { serve, Unsupported, cardData, cards: cardData?.cards ?? [] };
