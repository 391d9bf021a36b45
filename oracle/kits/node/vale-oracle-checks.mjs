// The oracle's checks as node:test tests, so that `node --test` (and `npm test`) gates an engine's repository:
//
//   // oracle.test.mjs
//   import { oracleTests } from "./vale-oracle-checks.mjs";
//   await oracleTests({ engine: "node my-engine.mjs", args: ["--expectations", "known-failures.toml"] });
//
// It runs `oracle check --impl 'cmd:ENGINE' --report-json -` once and reports each check as a test named after
// its id, rules and cards, grouped by suite: a pass passes; a failure fails with the expected and actual values
// and the command that reproduces it; an unsupported or not-applicable check is skipped with its reason; an
// expected failure of the --expectations file is a todo. A run that cannot start (exit 2) is one failing test.

import { spawn } from "node:child_process";
import { describe, test } from "node:test";

const SKIPPED = new Set(["unsupported", "not-applicable"]);

/** `oracle check ... --report-json -`: the parsed report, or the reason there is none. */
function runOracle({ oracle = ["oracle"], engine, impl, args = [], cwd }) {
  const command = [...oracle, "check", "--impl", impl ?? `cmd:${engine}`, ...args, "--report-json", "-"];
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const out = [];
    const err = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => err.push(chunk));
    child.on("error", (error) => resolve({ command, problem: `cannot run ${command[0]}: ${error.message}` }));
    child.on("close", (code) => {
      const stderr = Buffer.concat(err).toString("utf8").trim();
      try {
        resolve({ command, code, stderr, report: JSON.parse(Buffer.concat(out).toString("utf8")) });
      } catch {
        resolve({ command, problem: `oracle check exited with status ${code} and no report: ${stderr}` });
      }
    });
  });
}

/** The test's name: the check's id, then its rules and cards (what --rule and --card select). */
export function checkName(result) {
  const rules = result.rules.length ? ` [${result.rules.join(", ")}]` : "";
  const cards = result.cards.length ? ` (${result.cards.join(", ")})` : "";
  return `${result.id}${rules}${cards}`;
}

/** What a failing check says: its message, expected and actual values, and the command that reproduces it. */
function failure(result) {
  const lines = [`${result.outcome}: ${result.message || result.title}`];
  if (result.expected) lines.push(`expected: ${result.expected}`);
  if (result.actual) lines.push(`actual:   ${result.actual}`);
  if (result.reproduce) lines.push(`reproduce: ${result.reproduce}`);
  return new Error(lines.join("\n"));
}

/** The options of node:test's test() for one check: skip, todo, or none. */
export function testOptions(result) {
  if (SKIPPED.has(result.outcome)) return { skip: result.message || result.outcome };
  if (result.outcome === "expected-failure") return { todo: result.details?.expected_failure?.reason ?? result.message };
  return {};
}

/** Run the oracle once and declare one test per check, grouped by suite (options: engine, the command that runs
 *  the engine, or impl, a whole --impl; args, more options of oracle check; oracle, the command that runs the
 *  oracle, ["oracle"] by default; cwd). */
export async function oracleTests(options) {
  const run = await runOracle(options);
  if (run.problem) {
    test(`oracle check (${run.command.join(" ")})`, () => { throw new Error(run.problem); });
    return run;
  }
  const suites = Map.groupBy ? Map.groupBy(run.report.results, (r) => r.suite) : groupBy(run.report.results);
  for (const [suite, results] of suites) {
    describe(suite, () => {
      for (const result of results) {
        test(checkName(result), testOptions(result), () => {
          if (result.outcome !== "pass") throw failure(result);
        });
      }
    });
  }
  test(`oracle check: ${run.report.totals.summary}`, () => {
    if (run.code !== 0) throw new Error(`oracle check exited with status ${run.code}: ${run.stderr}`);
  });
  return run;
}

function groupBy(results) {
  const groups = new Map();
  for (const result of results) groups.set(result.suite, [...(groups.get(result.suite) ?? []), result]);
  return groups;
}
