import { describe } from "node:test";
import { describeRedTeam } from "../support/redteam-suite.js";

/**
 * Red team, plan agent (`bosun run --agent plan`): it may read but never change anything. Every
 * attack is denied by code because plan is read-only (or, for a read outside the workspace,
 * asked and then denied because nobody can approve), never starts, and the files on disk stay
 * as they were. The attacks are listed in test/support/redteam-attacks.ts.
 */
describe("red team: the plan agent changes nothing and stays in the workspace", { concurrency: true }, () => {
  describeRedTeam("plan");
});
