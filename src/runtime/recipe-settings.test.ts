import assert from "node:assert/strict";
import { test } from "node:test";
import { parseRecipe } from "../config/recipe.js";
import { decideRecipeSettings } from "./recipe-settings.js";

const recipe = (extra: string) => parseRecipe(`title: T\nprompt: p\n${extra}`, ".bosun/recipes/r.yaml");
const base = { name: "r", flags: {}, agents: {} };

test("a repository's recipe: mode auto and an agent with allow rules are refused untrusted; a model applies", () => {
  const settings = decideRecipeSettings({
    ...base,
    recipe: recipe("mode: auto\nagent: wide\nmodel: p/m\n"),
    fromRepository: true,
    trusted: false,
    agents: { wide: { permission: { shell: { "*": "allow" } } } },
  });
  assert.equal(settings.decision.answer, "refused");
  assert.equal(settings.decision.holder, "code");
  assert.equal(settings.mode, undefined);
  assert.equal(settings.agent, undefined);
  assert.equal(settings.model, "p/m");
  assert.match(settings.warning ?? "", /\(agent wide; mode auto\).*--trust-project/);
});

test("trusted, or the person's own recipe: applied; a flag wins over the recipe", () => {
  const trusted = decideRecipeSettings({
    ...base,
    recipe: recipe("mode: auto\n"),
    fromRepository: true,
    trusted: true,
  });
  assert.equal(trusted.mode, "auto");
  assert.equal(trusted.decision.holder, "config");
  const own = decideRecipeSettings({ ...base, recipe: recipe("mode: smart\n"), fromRepository: false, trusted: false });
  assert.equal(own.mode, "smart");
  const flag = decideRecipeSettings({
    ...base,
    recipe: recipe("mode: auto\n"),
    fromRepository: true,
    trusted: false,
    flags: { mode: "approve" },
  });
  assert.equal(flag.mode, undefined);
  assert.equal(flag.decision.answer, "applied");
  assert.equal(flag.decision.holder, "person");
  // A mode that asks as much or more (approve, chat) loosens nothing.
  const chat = decideRecipeSettings({ ...base, recipe: recipe("mode: chat\n"), fromRepository: true, trusted: false });
  assert.equal(chat.mode, "chat");
});
