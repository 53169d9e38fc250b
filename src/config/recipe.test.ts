import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { MODES } from "../permission/rules/modes.js";
import { parseRecipe, RECIPE_MODES, recipeValues, renderRecipe } from "./recipe.js";

const TEXT = `title: Fix a test
prompt: "Fix {{ name }} in {{ area }}"
parameters:
  - name: name
    required: true
  - name: area
    type: enum
    values: [core, cli]
    default: core
checks: ["npm test"]
`;

test("a recipe's parameters are filled in as text, never run", () => {
  const recipe = parseRecipe(TEXT, "r.yaml");
  const values = recipeValues(recipe, ["name=!`touch x` $(touch x) {{ area }}"]);
  assert.equal(renderRecipe(recipe, values), "Fix !`touch x` $(touch x) {{ area }} in core");
  assert.deepEqual(recipe.checks, ["npm test"]);
});

test("a missing required parameter names it", () => {
  const recipe = parseRecipe(TEXT, "r.yaml");
  assert.throws(
    () => recipeValues(recipe, []),
    (e: Error & { exitCode?: number }) => /"name"/.test(e.message),
  );
  assert.throws(() => recipeValues(recipe, ["name=a", "area=web"]), /must be one of core, cli/);
});

test("validation errors name file, line and key", () => {
  assert.throws(
    () => parseRecipe(`title: t\nprompt: p\nretries: x\n`, "r.yaml"),
    /^Error: r\.yaml:3: retries:|r\.yaml:3: retries:/,
  );
  assert.throws(() => parseRecipe(`title: t\nprompt: p\nbogus: 1\n`, "r.yaml"), /r\.yaml:3: bogus: unknown recipe key/);
  assert.throws(() => parseRecipe(`title: t\nprompt: "{{ x }}"\n`, "r.yaml"), /r\.yaml:2: prompt: uses \{\{ x \}\}/);
  assert.throws(() => parseRecipe(`{"title": "t"}`, "r.json"), /r\.json:1: prompt: is required/);
});

test("a recipe's mode is one of the permission modes", () => {
  assert.deepEqual([...RECIPE_MODES].sort(), Object.keys(MODES).sort());
  assert.throws(() => parseRecipe("title: t\nprompt: p\nmode: yolo\n", "r.yaml"), /r\.yaml:3: mode: must be one of/);
});

test("the README's complete example parses", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const example = /```yaml\n# \.bosun\/recipes\/fix-test\.yaml\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(example, "the README has the example");
  const recipe = parseRecipe(example, "fix-test.yaml");
  assert.deepEqual(
    recipe.parameters.map((p) => p.type),
    ["string", "enum", "file", "number", "boolean"],
  );
  assert.deepEqual(recipe.checks, ["npm test"]);
  assert.deepEqual(recipe.subRecipes, ["review-change"]);
});
