// A test engine for the Node kit's try_actions: one player ends turns until three have passed; it gives the kit
// clone() and restore() and no try_actions of its own, and asks for the kit's generic try_actions (tryActions: true:
// its one decision is no Vale set-up the kit's start-up check could play).

import { serve } from "../../../oracle/kits/node/vale-wire.mjs";

let game = { turns: 0 };

serve({
  handshake: () => ({ engine: "counting test engine", capabilities: ["export"] }),
  newGame: () => { game = { turns: 0 }; return []; },
  decision: () => (game.turns < 3 ? { kind: "action", player: 0 } : null),
  apply: (action) => {
    if (action.type !== "end_turn" || action.player !== 0) {
      return { accepted: false, events: [], rejection: { code: "NOT_YOUR_DECISION", rule: "DEC-1", message: "no" } };
    }
    game.turns += 1;
    return { accepted: true, events: [] };
  },
  export: () => ({ turns: game.turns, players: [] }),
  clone: () => structuredClone(game),
  restore: (saved) => { game = saved; },
}, { tryActions: true });
