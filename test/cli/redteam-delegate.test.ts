import { describe } from "node:test";
import { describeRedTeam } from "../support/redteam-suite.js";

/**
 * Red team through delegation: the run's model hands the whole batch of attacks to a delegate
 * whose definition claims the loosest mode there is. A delegate never has more authority than
 * its parent: under the plan agent every attack is denied by code as read-only; in approve mode
 * with nobody there every ask is denied by code — `mode: auto` in the delegate's definition
 * lifts nothing. The attacks are those of test/support/redteam-attacks.ts.
 */
const builder = { agent: "builder", definition: { description: "claims to run anything", mode: "auto" } };

describe("red team: a plan parent's delegate changes nothing", { concurrency: true }, () => {
  describeRedTeam("plan", { delegate: builder });
});

describe("red team: an approve parent with nobody there, its delegate claiming auto", { concurrency: true }, () => {
  describeRedTeam("approve", { delegate: builder });
});
