import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { render } from "ink-testing-library";
import { until } from "../../test/support/ink-frames.js";
import type { CustomCommand } from "../input/custom-commands.js";
import { App } from "./app.js";
import { CTRL_C_AGAIN_MS, ctrlC } from "./ctrl-c.js";
import { InputBox } from "./input-box.js";
import { filterMenu, menuEntries, menuQuery } from "./menu.js";
import type { Choice, InteractiveRunner } from "./runner.js";
import { shortDirectory } from "./welcome.js";
import { workingText } from "./work-line.js";

const tick = (ms = 40) => new Promise((resolve) => setTimeout(resolve, ms));

const UP = "\u001b[A";
const DOWN = "\u001b[B";
const ESC = "\u001b";
const CTRL_C = "\u0003";

const custom = (name: string, description?: string): CustomCommand => ({
  name,
  template: `Do ${name}`,
  file: `/w/.bosun/commands/${name}.md`,
  scope: "project",
  ...(description ? { description } : {}),
});

/** A quiet idle session; a test gives what it needs. */
function stubRunner(parts: Partial<InteractiveRunner> = {}): InteractiveRunner {
  return {
    status: () => ({ model: "scripted/a", agent: "build", mode: "approve" }),
    turn: async () => ({ status: "done", steps: 1, denied: 0 }),
    bang: async () => ({ output: "", exitCode: 0 }),
    why: () => "",
    compact: async () => "",
    close: async () => {},
    ...parts,
  };
}

describe("the / command menu", () => {
  const entries = menuEntries([custom("audit", "review the diff"), custom("help"), custom("mock-data")]);

  it("offers the built-ins, then the custom commands a built-in does not hide", () => {
    const names = entries.map((e) => e.name);
    assert.equal(names[0], "help");
    assert.deepEqual(names.slice(-2), ["audit", "mock-data"]);
    assert.equal(names.filter((n) => n === "help").length, 1, "the custom /help is shadowed");
    assert.equal(
      entries.find((e) => e.name === "mock-data")?.description,
      "Do mock-data",
      "no description: the template",
    );
  });

  it("opens only on a / typed first, until a space; filters by the exact name, then prefix, then substring", () => {
    assert.equal(menuQuery("/"), "");
    assert.equal(menuQuery("/mo"), "mo");
    assert.equal(menuQuery("/model x"), undefined);
    assert.equal(menuQuery(" /mo"), undefined);
    assert.equal(menuQuery("fix /mo"), undefined);
    assert.deepEqual(
      filterMenu(entries, "mo").map((e) => e.name),
      ["model", "mode", "mock-data"],
    );
    assert.deepEqual(
      filterMenu(entries, "mode").map((e) => e.name),
      ["mode", "model"],
      "the exact name first",
    );
    assert.deepEqual(
      filterMenu(entries, "ss").map((e) => e.name),
      ["sessions"],
    );
    assert.deepEqual(
      filterMenu(entries, "E")
        .map((e) => e.name)
        .slice(0, 3),
      ["exit", "help", "model"],
      "case does not matter; prefix before substring",
    );
    assert.deepEqual(filterMenu(entries, "zz"), []);
  });

  it("filters as you type; ↑/↓ move; Tab completes the marked name; Esc closes it, and ↑ walks the history again", async () => {
    const sent: string[] = [];
    const ui = render(<InputBox history={["/why", "older line"]} onSubmit={(t) => sent.push(t)} menu={entries} />);
    await tick();
    ui.stdin.write("/mo");
    let frame = await until(ui, /› \/model\s+show or switch the model/);
    assert.match(frame, / {2}\/mode\s+show or switch the permission mode/);
    assert.match(frame, /\/mock-data/);
    assert.doesNotMatch(frame, /\/help/);
    ui.stdin.write(DOWN);
    await until(ui, /› \/mode\s+show or switch/);
    ui.stdin.write(UP);
    ui.stdin.write(UP);
    await until(ui, /› \/mock-data/, "↑ from the first goes round to the last");
    ui.stdin.write(DOWN);
    ui.stdin.write("\t");
    frame = await until(ui, /│ › \/model /);
    assert.doesNotMatch(frame, /show or switch/, "the menu closes once a name is complete");
    assert.deepEqual(sent, [], "Tab sends nothing");
    // Cleared (Ctrl-U), a new / opens the menu again; Esc closes it and ↑ is the history's.
    ui.stdin.write("\u0015");
    ui.stdin.write("/");
    await until(ui, /› \/help/);
    ui.stdin.write(ESC);
    await tick(80);
    assert.doesNotMatch(ui.lastFrame() ?? "", /list the commands/);
    ui.stdin.write(UP);
    await until(ui, /│ › older line/);
    // A command walked to in the history opens no menu: ↑ goes on through the history.
    ui.stdin.write(UP);
    await until(ui, /│ › \/why/);
    assert.doesNotMatch(ui.lastFrame() ?? "", /show the decisions/);
    ui.unmount();
  });

  it("Enter runs a command typed exactly, else the marked one; a line with arguments goes as typed", async () => {
    const sent: string[] = [];
    const ui = render(<InputBox history={[]} onSubmit={(t) => sent.push(t)} menu={entries} />);
    await tick();
    for (const keys of ["/mode", "/he", "/mode chat"]) {
      ui.stdin.write(keys);
      await tick();
      ui.stdin.write("\r");
      await tick();
    }
    assert.deepEqual(sent, ["/mode", "/help", "/mode chat"]);
    ui.unmount();
  });

  it("Tab still completes an @path, and a line with no menu match goes as typed", async () => {
    const sent: string[] = [];
    const ui = render(
      <InputBox
        history={[]}
        onSubmit={(t) => sent.push(t)}
        menu={entries}
        complete={(p) => (p === "sr" ? ["src/"] : [])}
      />,
    );
    await tick();
    ui.stdin.write("look at @sr");
    await tick();
    ui.stdin.write("\t");
    await until(ui, /look at @src\//);
    ui.stdin.write("\u0015");
    ui.stdin.write("/etc/hosts");
    await tick();
    ui.stdin.write("\r");
    await tick();
    assert.deepEqual(sent, ["/etc/hosts"]);
    ui.unmount();
  });
});

describe("Ctrl-C", () => {
  it("idle quits; while something runs the first interrupts and a second within a second quits", () => {
    assert.equal(ctrlC({ busy: false, now: 5000 }), "quit");
    assert.equal(ctrlC({ busy: true, now: 5000 }), "interrupt");
    assert.equal(ctrlC({ busy: true, now: 5000, last: 5000 - CTRL_C_AGAIN_MS }), "quit");
    assert.equal(ctrlC({ busy: true, now: 5000, last: 5000 - CTRL_C_AGAIN_MS - 1 }), "interrupt");
  });

  it("clears a draft in the input without quitting; on an empty input it is the app's", async () => {
    let asked = 0;
    const ui = render(<InputBox history={[]} onSubmit={() => {}} onCtrlC={() => asked++} />);
    await tick();
    ui.stdin.write("half a thought");
    await tick();
    ui.stdin.write(CTRL_C);
    await until(ui, /Ask bosun/);
    assert.equal(asked, 0);
    ui.stdin.write(CTRL_C);
    await tick();
    assert.equal(asked, 1);
    ui.unmount();
  });

  it("during a turn: the first interrupts it and warns; a second at once quits (what waited is dropped, recorded)", async () => {
    const aborted: string[] = [];
    const steers: string[] = [];
    const runner = stubRunner({
      async turn(_text, io) {
        await new Promise<void>((resolve) =>
          io.signal.addEventListener("abort", () => {
            aborted.push(String((io.signal.reason as Error).message));
            resolve();
          }),
        );
        return { status: "cancelled", steps: 0, denied: 0 };
      },
      noteSteer: async (message, answer, cause) => void steers.push(`${message.text}:${answer}:${cause ?? ""}`),
    });
    const ui = render(<App runner={runner} />);
    await tick();
    ui.stdin.write("long job");
    await tick();
    ui.stdin.write("\r");
    await tick(80);
    ui.stdin.write("and then this");
    await tick();
    ui.stdin.write("\r");
    await tick(80);
    ui.stdin.write(CTRL_C);
    await tick(80);
    assert.deepEqual(aborted, ["interrupted by the person (Ctrl-C)"]);
    await until(ui, /interrupted; press Ctrl-C again within a second to quit/);
    assert.deepEqual(steers, [], "still open");
    ui.stdin.write(CTRL_C);
    await tick(80);
    assert.deepEqual(steers, ["and then this:drop:exit"], "the second quit: the app is gone");
  });
});

describe("the spinner while the agent works", () => {
  it("says how long, how many tokens, and how long the model has been silent", () => {
    assert.equal(workingText(0, 12_400, 0), "⠋ working · 12 s · 0 tokens · Esc interrupts");
    assert.equal(
      workingText(11, 3000, 15_300, "waiting for the model · 2 s (Esc interrupts)"),
      "⠙ working · 3 s · 15k tokens · waiting for the model · 2 s (Esc interrupts)",
    );
  });

  it("counts from when the work started, with the tokens used since; gone when it ends", async () => {
    let now = 50_000;
    let tokens = 9000;
    let finish: () => void = () => {};
    const runner = stubRunner({
      tokens: () => tokens,
      turn: () =>
        new Promise((resolve) => {
          finish = () => resolve({ status: "done", steps: 2, denied: 0 });
        }),
    });
    const ui = render(<App runner={runner} waitClock={{ now: () => now, everyMs: 10 }} />);
    await tick();
    ui.stdin.write("go");
    await tick();
    ui.stdin.write("\r");
    await until(ui, /working · 0 s · 0 tokens · Esc interrupts/);
    now += 7_200;
    tokens += 1_234;
    await until(ui, /working · 7 s · 1\.2k tokens/);
    finish();
    await tick(80);
    assert.doesNotMatch(ui.lastFrame() ?? "", /working ·/);
    ui.unmount();
  });
});

describe("the welcome header", () => {
  it("writes the home folder as ~", () => {
    assert.equal(shortDirectory("/home/ann/code/app", "/home/ann"), "~/code/app");
    assert.equal(shortDirectory("/home/ann", "/home/ann"), "~");
    assert.equal(shortDirectory("/home/anna/x", "/home/ann"), "/home/anna/x");
    assert.equal(shortDirectory("/srv/app", "/"), "/srv/app");
  });

  it("shows version, directory and keys at once, the model and mode once the session is open, and stays first", async () => {
    let open: () => void = () => {};
    let model = "…";
    const runner = stubRunner({
      ready: new Promise<void>((resolve) => {
        open = resolve;
      }),
      status: () => ({ model, agent: "build", mode: model === "…" ? "…" : "smart" }),
      turn: async (_text, io) => {
        io.emit({ type: "text", text: "Hello there." });
        return { status: "done", steps: 1, denied: 0 };
      },
    });
    const ui = render(<App runner={runner} welcome={{ version: "9.8.7", directory: "/srv/app" }} />);
    let frame = await until(ui, /bosun 9\.8\.7 · \/srv\/app/);
    assert.match(frame, /model … · agent build · mode …/);
    assert.match(frame, /\/ commands · Esc interrupts · Ctrl-C quits/);
    model = "scripted/a";
    open();
    await tick(80);
    ui.stdin.write("hi");
    await tick();
    ui.stdin.write("\r");
    frame = await until(
      ui,
      /Hello there\.[\s\S]*model scripted\/a|model scripted\/a · agent build · mode smart[\s\S]*Hello there\./,
    );
    assert.match(frame, /model scripted\/a · agent build · mode smart/);
    assert.equal(frame.match(/bosun 9\.8\.7/g)?.length, 1, "drawn once");
    assert.ok(frame.indexOf("bosun 9.8.7") < frame.indexOf("Hello there."), "above the transcript");
    ui.unmount();
  });

  it("with no model configured, the session stays open and says what to set up", async () => {
    const runner = stubRunner({
      ready: Promise.resolve(),
      setup: () => "No model is configured: set ANTHROPIC_API_KEY",
    });
    const ui = render(<App runner={runner} />);
    await until(ui, /No model is configured: set ANTHROPIC_API_KEY/);
    ui.unmount();
  });
});

describe("the /model, /agent and /mode pickers", () => {
  const models: Choice[] = [
    { value: "scripted/a", detail: "config model", current: true },
    { value: "scripted/b", detail: "agent review's model" },
  ];
  const setup = () => {
    const commands: string[] = [];
    const runner = stubRunner({
      choices: (kind) =>
        kind === "model" ? models : [{ value: "approve", current: true }, { value: "smart" }, { value: "auto" }],
      command: async (name, args) => {
        commands.push(`${name} ${args}`);
        return `switched ${name} to ${args}`;
      },
    });
    return { ui: render(<App runner={runner} />), commands };
  };
  const send = async (ui: ReturnType<typeof render>, text: string) => {
    ui.stdin.write(text);
    await tick();
    ui.stdin.write("\r");
    await tick(80);
  };

  it("/model alone lists the configured models, the one in use marked; ↓ Enter switches through the runner", async () => {
    const { ui, commands } = setup();
    await tick();
    await send(ui, "/model");
    const frame = await until(ui, /› scripted\/a\s+config model \(now\)/);
    assert.match(frame, /Switch the model \(↑\/↓, Enter; Esc keeps the one in use\)/);
    assert.match(frame, /› scripted\/a\s+config model \(now\)/);
    assert.match(frame, / {2}scripted\/b\s+agent review's model/);
    ui.stdin.write(DOWN);
    await tick();
    ui.stdin.write("\r");
    await tick(80);
    assert.deepEqual(commands, ["model scripted/b"]);
    await until(ui, /switched model to scripted\/b/);
    assert.doesNotMatch(ui.lastFrame() ?? "", /Switch the model/);
    ui.unmount();
  });

  it("Esc, or Enter on the one in use, keeps it and switches nothing; /mode x with an argument switches at once", async () => {
    const { ui, commands } = setup();
    await tick();
    await send(ui, "/mode");
    await until(ui, /Switch the permission mode[\s\S]*› approve\s+\(now\)/);
    ui.stdin.write(ESC);
    await until(ui, /kept mode approve/);
    await send(ui, "/model");
    ui.stdin.write("\r");
    await until(ui, /kept model scripted\/a/);
    await send(ui, "/mode auto");
    assert.deepEqual(commands, ["mode auto"]);
    assert.doesNotMatch(ui.lastFrame() ?? "", /Switch the/);
    ui.unmount();
  });
});
