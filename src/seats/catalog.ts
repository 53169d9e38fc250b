import { DEFAULTS } from "../config/defaults.js";
import type { Seat } from "../contracts/decisions.js";
import { DEFAULT_MODE, MODE_SUMMARIES } from "../contracts/modes.js";
import { BASE_DELAY_MS } from "../contracts/retry.js";

/**
 * Every decision point bosun has, declared once. `bosun seats` prints this list; the ledger
 * refuses a decision for a seat not declared here or by a holder the seat does not allow.
 * A test fails when a seat here is named by no test.
 */
export const SEATS: readonly Seat[] = [
  {
    id: "config.load",
    question: "Which config layers and files were read, and which were absent?",
    holders: ["code"],
    default:
      "read every layer that exists, lowest first: default, global, project, BOSUN_CONFIG, BOSUN_CONFIG_CONTENT, env, flag; a {env:}/{file:} reference that cannot be resolved — or, in a repository's config, names a variable bosun withholds (outside credential keys) or a file the read rules do not allow outright — leaves its key unset, listed with why",
    fail: "closed",
    config: ["BOSUN_HOME", "BOSUN_CONFIG", "BOSUN_CONFIG_CONTENT", "XDG_CONFIG_HOME"],
  },
  {
    id: "session.target",
    question: "Which session does this run belong to: new, the latest here, a given one, or a fork?",
    holders: ["person", "code"],
    default:
      "a new session (code), unless the person names one to resume or fork, or asks to continue the latest one here (of this repository, from any of its folders)",
    fail: "closed",
    config: [],
  },
  {
    id: "model.select",
    question: "Which model answers this session's requests?",
    holders: ["person", "code", "config"],
    default:
      "a custom command's `model:` for its own turn (config); else --model or /model (person); else the resumed session's own model; else the agent's model; else config model; else the first provider with credentials and its default model (code)",
    fail: "closed",
    config: ["model", "provider"],
  },
  {
    id: "model.retry",
    question: "Is a failed model request tried again, and after how long?",
    holders: ["code"],
    default: `retry rate limits, server errors, network failures and timeouts while nothing of the attempt was shown: up to ${DEFAULTS.retry.max_attempts} attempts, exponential backoff from ${BASE_DELAY_MS} ms with jitter, honouring retry-after, no delay over ${DEFAULTS.retry.max_delay_ms} ms`,
    fail: "closed",
    config: ["retry.max_attempts", "retry.max_delay_ms"],
  },
  {
    id: "model.options",
    question: "What does each model request carry for reasoning (effort, thinking budget)?",
    holders: ["config", "code"],
    default:
      "the agent's `reasoning` over its model's (`provider.<p>.models.<m>.reasoning`), mapped onto the provider: Anthropic and Google a thinking budget (an effort alone stands for one, fitted under the output limit), OpenAI and compatible servers an effort; neither set: none, the provider's default (code). Recorded once a session and when it changes",
    fail: "closed",
    config: ["agent", "provider"],
  },
  {
    id: "model.fallback",
    question: "After a model fails for good, which model takes over?",
    holders: ["config"],
    default:
      "none: the failure stands unless config fallback lists models; only rate limit, quota, server, network, timeout and authentication failures move to the next listed model",
    fail: "closed",
    config: ["fallback"],
  },
  {
    id: "agent.select",
    question: "Which agent runs this turn (its model and instructions)?",
    holders: ["person", "code", "config", "model"],
    default:
      "the built-in \"build\" agent (code); --agent <name> or /agent is the person's choice of a configured agent; a custom command's `agent:` holds for its own turn (config), but never lifts a read-only agent, and a repository's command may only switch to a read-only one (code refuses either); a delegate's agent is the one the model named in its task call (model)",
    fail: "closed",
    config: ["agent"],
  },
  {
    id: "agent.catalog",
    question: "Which agents are there, defined where, and which agent files does another of the same name shadow?",
    holders: ["config", "code"],
    default:
      "the built-in build and plan (code), config `agent`, and agent files: `.bosun/agents`, `.opencode/agents`, `.opencode/agent`, `.claude/agents` in every folder from the repository root down (a deeper folder beats a shallower, and within one folder that order), then the global config folder's `agents/`; a file's name names its agent (a Claude Code file's valid `name:` wins); a scope's winning file is a layer below its bosun.json, a repository's passing the same trust check; another tool's keys bosun has no meaning for are left out and listed, a file of another tool that does not parse is skipped (bosun's own: an error); recorded only when an agent file was read",
    fail: "soft",
    config: ["agent"],
  },
  {
    id: "session.recover",
    question:
      "A tool call has no outcome because bosun was killed (while it ran, or before it started): what becomes of it?",
    holders: ["code"],
    default:
      "one that started is marked interrupted, one that never started is marked never started; neither is run (again), and the model is told so",
    fail: "closed",
    config: [],
  },
  {
    id: "context.instructions",
    question: "Which instruction files does the model see, in which order, and which were skipped?",
    holders: ["config", "code"],
    default:
      "AGENTS.md from the global config dir, then every AGENTS.md from the repository root down to the working directory (the nearest last); CLAUDE.md where no AGENTS.md sits beside it; then config instructions.files; then each connected MCP server's own instructions (up to 4000 characters each, cut with a note; a server started again with other instructions is recorded again, in the system prompt from the next step); a subfolder's AGENTS.md is added once when the model reads a file there; each file's @path imports follow it (relative to it, not in code, 5 deep, cycles cut, 256 KiB in all, recorded with their importer); each file is checked as a read of it would be (through links, hard links too): the repository's only when the rules allow it outright, the global one and your config's unless they deny it; missing, unreadable or refused files are skipped and listed with why",
    fail: "soft",
    config: ["instructions.files", "instructions.claude_md", "instructions.fetch_timeout_ms"],
  },
  {
    id: "context.skills",
    question: "Which skills are offered to the model, and which are shadowed by another of the same name?",
    holders: ["code"],
    default:
      "every folder with a SKILL.md under .bosun/skills, .agents/skills, .claude/skills (project, then global); the first root in that order wins a name; a project's SKILL.md only when the read rules allow it outright (a link to .env or out of the workspace is not), a global one unless they deny it; a broken or refused SKILL.md is skipped and listed with why",
    fail: "soft",
    config: [],
  },
  {
    id: "context.tools",
    question: "Which tools are offered to the model this step?",
    holders: ["person", "config", "code", "policy"],
    default:
      "every tool but those the rules or the policy deny outright (a deny for the tool's action with no allow or ask after it), those a read-only agent may never use, MCP tools whose schema cannot be compiled, websearch with no backend configured, and the provider's own web search (web.search native) unless the model's provider has one and the rules allow web:search outright; of edit and apply_patch only one: the model's edit_tool, else apply_patch for OpenAI gpt-*, o* and codex models and edit for the rest (write stays); none in chat mode (held by whoever chose the mode), nor to a model that takes no tools (bosun's catalog says it makes no tool calls: holder code; its tools set false or none: holder config); a call to a tool not offered is still judged, and denied",
    fail: "closed",
    config: [
      "permission",
      "mode",
      "web.search",
      "provider.<name>.models.<id>.edit_tool",
      "provider.<name>.models.<id>.tools",
    ],
  },
  {
    id: "context.prune",
    question: "Which old tool outputs are sent only as a one-line note?",
    holders: ["config"],
    default:
      "when tool outputs before the newest user message exceed compaction.prune_tokens (estimated), the oldest are replaced by a note naming the call until they fit; the store keeps them whole",
    fail: "soft",
    config: ["compaction.prune_tokens"],
  },
  {
    id: "compaction.trigger",
    question: "Is the conversation too close to the context window: compact before this request?",
    holders: ["config", "code"],
    default: `compact when the estimate (the last measured input tokens plus about a token per 4 characters since) reaches compaction.threshold (${DEFAULTS.compaction.threshold}) of the window less the output reserve; an unknown window never triggers; compaction.auto false never compacts (an overflow is then an error)`,
    fail: "closed",
    config: ["compaction.auto", "compaction.threshold"],
  },
  {
    id: "compaction.hook",
    question: "A compaction is about to run: what do the pre_compact hooks add to the summary's instructions?",
    holders: ["hook", "code"],
    default:
      "each hooks.pre_compact hook runs before bosun compacts a conversation — in a turn (trigger auto), on /compact or `bosun compact` (manual) — a repository's only once project.command let it (with nobody to ask, `bosun compact` runs it only on a lasting yes already given); its stdout or {\"context\"} is added to the summary's instructions, at most 10,000 characters a hook (hook); one that crashes, times out or prints JSON in no known shape adds nothing, recorded (code); it cannot stop the compaction",
    fail: "soft",
    config: ["hooks.pre_compact"],
  },
  {
    id: "compaction.summary",
    question: "Is the summary that replaces the older history good enough to continue from?",
    holders: ["model", "code"],
    default:
      "the session's model (or compaction.model) writes a summary with the sections Goal, Decisions, State of work, Next step, Relevant files; code checks every section is there, asks once more, then fails the compaction; the newest compaction.keep_tokens are kept verbatim from a user message on",
    fail: "closed",
    config: ["compaction.model", "compaction.keep_tokens"],
  },
  {
    id: "input.command",
    question: "A line starting with / or !: which command does it run, or is it text for the model?",
    holders: ["person", "code"],
    default:
      "a built-in slash command wins over a custom one of the same name (the shadowing is shown in /help); a custom command (.bosun/commands/*.md, .claude/commands/**/*.md as /a:b, .opencode/command(s)/*.md, then the global dir's; the first wins a name, the others listed as shadowed; front matter keys bosun has no meaning for, allowed-tools included, ignored and listed) expands its template, running only the !`cmd` spans the template itself holds; an unknown /word goes to the model as text; !cmd runs the command as the person",
    fail: "closed",
    config: [],
  },
  {
    id: "input.steer",
    question:
      "A message typed while the agent works: does it steer the turn at its next step, wait for the turn's end, or go?",
    holders: ["person", "code"],
    default:
      "it steers: delivered at the next step boundary (code's default); Tab makes it wait for the turn's end and Ctrl-X drops it (the person); recorded when it is delivered or dropped",
    fail: "closed",
    config: [],
  },
  {
    id: "session.title",
    question: "What is a new session called?",
    holders: ["person", "model", "code"],
    default:
      "--title (person); else small_model, when configured, writes three to six words from the first message (model); without it, or when it fails, the first words of the message and the time the session started (fix the parser · 14:05) are the title (code), recorded",
    fail: "soft",
    config: ["small_model"],
  },
  {
    id: "session.cwd",
    question: "A resumed session was started in another directory: work there, or here?",
    holders: ["person", "code"],
    default:
      "interactive: the person is asked whether to switch back to the session's directory; non-interactive: stay in the current directory and warn on stderr (code)",
    fail: "soft",
    config: [],
  },
  {
    id: "session.revert",
    question: "Undo, redo or rewind: may the session's files and conversation go back (or forward) to a turn?",
    holders: ["person"],
    default:
      "the person asks (/undo, /redo, /rewind, bosun undo); refused while a turn runs or another process holds the session, for a turn a compaction summarised, when there is nothing to undo or redo, and when a file to put back was changed since bosun's last snapshot (unless --force, or the person says so when asked); every answer recorded with the turns and files",
    fail: "closed",
    config: ["undo.enabled", "undo.max_file_bytes"],
  },
  {
    id: "turn.limit",
    question: "Has the turn used up its step budget?",
    holders: ["config"],
    default: `stop after max_steps (${DEFAULTS.max_steps}) model steps; from half-way the model sees how many are left`,
    fail: "closed",
    config: ["max_steps"],
  },
  {
    id: "turn.done",
    question: "The model replied without tool calls: is the turn done?",
    holders: ["model", "code"],
    default:
      "a reply with text ends the turn (model); an empty reply is asked again twice, then the turn fails (code); while a background delegate of the turn still runs, the turn waits for it and goes on with its result (code); while the todo list has items not done, the first such end in a turn is answered with one reminder listing them (code), and the next end stands (model)",
    fail: "closed",
    config: [],
  },
  {
    id: "session.start_hook",
    question: "What do the session_start hooks add to the model's context as the session opens?",
    holders: ["hook", "code"],
    default:
      'each hooks.session_start hook runs when a session opens (a repository\'s only once project.command let it); its stdout, {"context"} or additionalContext is added for the model, at most 10,000 characters a hook (hook); one that crashes, times out or prints JSON in no known shape adds nothing, recorded (code); it cannot block',
    fail: "soft",
    config: ["hooks.session_start"],
  },
  {
    id: "turn.prompt_hook",
    question: "Do the prompt hooks let the person's message start a turn, and with what beside it?",
    holders: ["hook", "config", "code"],
    default:
      'each hooks.user_prompt_submit hook runs on the message first (a repository\'s only once project.command let it); exit 2, {"decision":"block"} or "continue": false blocks it — the reason is shown, the model never sees the message, exit 3 (hook); stdout text, {"context"} or additionalContext is added for the model, at most 10,000 characters a hook (hook); a hook that crashes, times out or prints JSON in no known shape blocks (code) unless its on_error says allow (config)',
    fail: "closed",
    config: ["hooks.user_prompt_submit"],
  },
  {
    id: "turn.stop_hook",
    question: "The model is done: do the stop hooks let the turn end?",
    holders: ["hook", "config", "code"],
    default:
      'each hooks.stop hook runs (hooks.subagent_stop at a delegate\'s end; a repository\'s only once project.command let it); exit 2 or {"decision":"block","reason":…} sends the agent back with the reason (hook), at most hooks.stop_limit times a turn (default 3), then the turn stops as a limit (config or code); a hook that crashes, times out or prints JSON in no known shape fails the turn (code), never "done"',
    fail: "closed",
    config: ["hooks.stop", "hooks.subagent_stop", "hooks.stop_limit"],
  },
  {
    id: "turn.goal",
    question: "The model is done and the stop hooks let it end: do the turn's goal commands pass?",
    holders: ["person", "config"],
    default:
      "with a goal (--until or /goal: the person's; a recipe's checks: its file's, config), each command runs in order when the model says it is done, each run recorded (command, exit code, attempt): all exit 0, the turn is done; one that fails goes back to the model with its output's last 8000 characters and the turn goes on (continue) — a command that cannot run (not found, timed out, refused by the gate: a repository's recipe's checks are judged as commands it brings) is a failure, never a pass; once goal.max_steps, goal.max_seconds or goal.max_cost is spent (or a recipe's retries), the turn ends failed (out_of_budget; bosun run exits 1)",
    fail: "closed",
    config: ["goal.max_steps", "goal.max_seconds", "goal.max_cost"],
  },
  {
    id: "turn.continue_after_length",
    question: "The reply was cut off at the output limit: continue it?",
    holders: ["code"],
    default: "continue, at most twice; then the turn fails",
    fail: "closed",
    config: [],
  },
  {
    id: "call.parse",
    question: "Can the call's arguments be read?",
    holders: ["code"],
    default:
      "unreadable JSON goes back to the model as an error quoting up to 2 KB of what it sent (recorded only when it fails)",
    fail: "closed",
    config: [],
  },
  {
    id: "call.shim",
    question: "Is the model's text read as tool calls, and what was read?",
    holders: ["config", "code"],
    default:
      'read when provider.<name>.models.<id>.tools is "text" (holder config; tools described in the system prompt, none sent), or detected when native tools were sent and the answer made no native call but its text holds clean calls of offered tools (holder code; never when tools is "native"), and then the rest of the turn is in text mode (recorded, holder code); each call recorded with its format, text span and what was read, then gated like a native call',
    fail: "closed",
    config: ["provider.<name>.models.<id>.tools"],
  },
  {
    id: "call.repair",
    question: "Can a malformed call be repaired without guessing?",
    holders: ["code"],
    default:
      "only unambiguous repairs, each recorded with before and after: functions./tool. prefixes and case in names, stringified JSON, numbers and booleans sent as strings, a lone value where an array belongs",
    fail: "closed",
    config: [],
  },
  {
    id: "call.validate",
    question: "Does the call name a known tool with valid arguments?",
    holders: ["code"],
    default:
      "an unknown tool or schema errors go back to the model, listed (recorded only when it fails); an MCP tool's arguments are checked against its server's own JSON Schema (ajv), and a tool whose schema cannot be compiled fails every call",
    fail: "closed",
    config: [],
  },
  {
    id: "call.repeat",
    question: "Is the model stuck repeating the same call?",
    holders: ["code"],
    default: `the same tool with the same arguments ${DEFAULTS.repeat_limit} times in a row stops the turn`,
    fail: "closed",
    config: ["repeat_limit"],
  },
  {
    id: "permission.mode",
    question: "Which permission mode governs this run's tool calls, under which rule layers and policy?",
    holders: ["person", "config", "code"],
    default: `--mode (person); else a recipe's mode for its run (config: the recipe file; a repository's loosening one only with --trust-project, seat recipe.settings); else the agent's mode; else config mode; else ${DEFAULT_MODE} (code): ${MODE_SUMMARIES[DEFAULT_MODE]}`,
    fail: "closed",
    config: ["mode", "agent.<name>.mode"],
  },
  {
    id: "project.trust",
    question:
      "Does this run apply what the repository's own bosun.json and agent files would loosen (allow rules, an auto or smart mode, a read_only: false, a judge model, a step, goal, delegate, retry or stop-hook budget over its default, a provider's endpoint, host settings, key or npm package, reasoning, text tools, MCP servers reading your environment or files)?",
    holders: ["person", "code"],
    default:
      "only when the person trusts it: --trust-project for this run, a trust saved for exactly this content, or yes at the terminal prompt; otherwise code leaves those settings out (the user's own config decides; an MCP server whose env, command or args reads {env:} or {file:} gets no such env entry, or does not run), and the repository's rules — its permission and its agents' — only tighten: per request, its answer applies only where it is at least as strict as the layers below it",
    fail: "closed",
    config: ["permission", "mode", "agent.<name>.mode", "judge_model", "provider.<name>.npm", "mcp"],
  },
  {
    id: "project.command",
    question: "May a command that the repository's own bosun.json names (a hook, an MCP server) run?",
    holders: ["person", "config", "code"],
    default:
      "judged like a shell call before it first runs, by every rule layer except the project's own (a repository cannot approve its own commands): allowed runs, always sealed (exec.sandbox); asked goes to the person, and is not run when nobody can be asked; one that cannot be sealed does not run; a skipped hook does not run, a skipped server is not started",
    fail: "closed",
    config: ["hooks", "mcp", "permission"],
  },
  {
    id: "review.check",
    question: "Did one of the checks `bosun review` runs first (config review.checks) pass?",
    holders: ["code"],
    default:
      "passed on exit 0; failed on any other exit; not run when it could not start (exit 126/127), overran shell.max_timeout_ms, or — a check the repository's bosun.json brings — the rules did not let it run (judged like any shell call the repository brings, sealed; nobody is asked). Failed and not run both fail the review (exit 1)",
    fail: "closed",
    config: ["review.checks"],
  },
  {
    id: "review.verdict",
    question: "How did `bosun review` end: clean, with findings, or failed?",
    holders: ["code"],
    default:
      "failed (exit 1) when a check did not pass or the read-only reviewer gave no findings object that validates (asked once more first); else exit 1 when a finding reaches --fail-on (default high); clean only when every check ran and passed and there are no findings",
    fail: "closed",
    config: ["review.checks"],
  },
  {
    id: "recipe.settings",
    question: "Which of a recipe's settings (agent, model, mode) does the run take?",
    holders: ["config", "person", "code"],
    default:
      "the recipe's agent, model and mode apply (config: the recipe file) unless the person's own --agent, --model or --mode names another (person); a repository's recipe (.bosun/recipes/, or a file inside the workspace) that asks for mode smart or auto, or an agent whose mode is smart or auto or which has allow rules of its own, is refused that setting unless the run has --trust-project — left out, recorded, warned about with how to allow it (code); a model changes no authority and applies",
    fail: "closed",
    config: [],
  },
  {
    id: "recipe.response",
    question: "Does the final answer of a recipe's run satisfy the recipe's response schema?",
    holders: ["code"],
    default:
      "the final answer (the whole text, or its one ```json fence) is parsed as JSON and validated with Ajv (JSON Schema 2020-12): valid ends the run as done; invalid is sent back to the model with the problems, at most 2 times (invalid), then the run fails, exit 1 (failed) — never done",
    fail: "closed",
    config: [],
  },
  {
    id: "mcp.connect",
    question: "Did this MCP server start and list its tools, and does the run go on without one that did not?",
    holders: ["config", "code", "person"],
    default:
      'every enabled server is started at once, each within 30 s: one that connects is "connected · N tools" (every page of its list); one that fails is "failed" with its error and the last 20 lines of its stderr, warned about, and the run goes on without its tools (code) — "needs sign-in" when a url server asks for OAuth and no usable credentials are stored (a run never opens a browser: `bosun mcp login <name>` signs in) — unless config mcp.<name>.required is true, then the run stops naming it (config); a server that announces tools/list_changed is listed again, "relisted · N tools", offered from the next step (code), and one that announces prompts/list_changed has its prompts listed again, "relisted · N prompts", the slash commands from then on (code); one the person starts again (/mcp reconnect) is answered as at start, never stopping the session (person); a reconnect refused — while a turn runs, or of a server never approved or left out untrusted — is "refused" with why, nothing started (code)',
    fail: "soft",
    config: ["mcp.<name>.required", "mcp.<name>.command", "mcp.<name>.enabled", "mcp.<name>.oauth"],
  },
  {
    id: "mcp.elicit",
    question: "An MCP server asks the person for values (a form): what goes back to it?",
    holders: ["person", "code"],
    default:
      "the form is put to the person (the terminal's prompt, the TUI's dialog) and their answer, checked against the form, goes back (person); with nobody there, a form bosun cannot draw, an answer that does not fit it, or a URL elicitation: declined (code). The ledger names the fields answered, never their values",
    fail: "closed",
    config: [],
  },
  {
    id: "call.question",
    question: "The model asks the person a question (the question tool): what does it get back?",
    holders: ["person", "code"],
    default:
      "the question goes to the person's face (the TUI's dialog, the terminal's prompt) with its options and room for their own words: answered, declined or dismissed (person); with nobody there the model gets an error result saying nobody can answer, and an answer naming a choice never offered (or several where one was asked for) is unfit, never told to the model as chosen (code). The ledger says how many options were picked and whether words were typed, never the words",
    fail: "closed",
    config: [],
  },
  {
    id: "call.permission",
    question: "May this tool call run: allow, ask or deny?",
    holders: ["config", "code", "person"],
    default:
      "each request of the call (read:, edit:, shell:, external_directory:, ...) against the rule layers — built-in defaults, the mode's preset, global, project, BOSUN_CONFIG, the agent's rules, --allow/--ask/--deny, saved approvals — the last matching rule winning; then a read-only agent denies edits and commands not proven read-only; then auto turns asks into allows and chat denies all. Any deny → deny, else any ask → ask, else allow; a call that cannot be analysed is never allowed",
    fail: "closed",
    config: ["permission", "agent.<name>.permission", "agent.<name>.read_only", "mode"],
  },
  {
    id: "call.judge",
    question: "Smart mode: is a shell command no table knows read-only?",
    holders: ["model", "code"],
    default:
      "asked only for asking commands in no table that no written rule covers; the judge model answers READ_ONLY or WRITES per command; read-only runs, anything else or a judge error asks (code)",
    fail: "closed",
    config: ["judge_model"],
  },
  {
    id: "call.hook",
    question: "What do the configured hooks say about this call?",
    holders: ["hook", "config", "code"],
    default:
      'pre_tool: exit 2, {"decision":"deny"|"block"} or Claude Code\'s hookSpecificOutput.permissionDecision "deny" denies, "ask" asks, "continue": false stops the turn, updatedInput denies, exit 0 passes ("allow"/"approve" loosen nothing); a hook that crashes, times out or prints JSON in no known shape denies (code) unless its on_error says allow (config). post_tool: its output, context, additionalContext or block reason is added to the result; "continue": false stops the turn after the call',
    fail: "closed",
    config: ["hooks"],
  },
  {
    id: "person.notify",
    question: "bosun waits for the person (an approval ask, an MCP server's form): were the notification hooks told?",
    holders: ["hook", "code"],
    default:
      "each hooks.notification hook runs when the person is asked (notification_type permission_prompt or elicitation_dialog), not waited for (fire-and-forget, bounded by its timeout); exit 0 is notified (hook), anything else failed (code); either way the ask goes on",
    fail: "soft",
    config: ["hooks.notification"],
  },
  {
    id: "call.policy",
    question: "Does the administrator's policy forbid this call?",
    holders: ["policy"],
    default:
      "deny-only rules from /etc/bosun/policy.json and BOSUN_POLICY, applied after rules, saved approvals and hooks, overridden by none; a call that cannot be analysed is denied under a policy",
    fail: "closed",
    config: ["BOSUN_POLICY"],
  },
  {
    id: "call.approval",
    question: "A call needs approval: does the person give it?",
    holders: ["person", "code"],
    default:
      "in a terminal the person answers: allow once, always (saves the narrow rules shown, never lifting a written deny or ask), deny, or deny with a message for the model; with nobody attached code denies, naming the narrow --allow that would allow that call (checked), and --auto (the person's advance answer) allows once; a call bound to fail as things stand (an edit of a file not read) is not put to the person at a terminal: code answers `not asked` and the model is told why",
    fail: "closed",
    config: [],
  },
  {
    id: "exec.sandbox",
    question: "How is a command bosun runs confined: sealed, masked, or not at all?",
    holders: ["code", "config"],
    default:
      "with bubblewrap. A shell command run on a proof (read-only analysis, the judge, a read-only agent) runs sealed: the file system read-only but for exactly the files the rules let it write, home folders, /tmp and /run hidden but for the workspace, no network, its own user and process namespaces; a command someone allowed (a rule, the person, --auto) runs masked: as it would, but in its own process namespace with the files the read rules protect shown empty (but those it was approved to read or write). A repository's hook or MCP server always runs sealed: read-only on a proof, the workspace writable and the network kept when allowed by name. Where sealing cannot work a read-only agent's command is denied, a repository's does not run, and any other asks; a file the rules deny with other names (hard links) denies the command; shell.sandbox off runs everything unconfined (config)",
    fail: "closed",
    config: ["shell.sandbox"],
  },
  {
    id: "exec.terminal",
    question:
      "Where does a shell command of an editor's (ACP) session run: the editor's terminal or bosun's own process?",
    holders: ["code"],
    default:
      "bosun's own process, always, confined as exec.sandbox says: the editor's terminal (ACP terminal/create) runs outside bosun's confinement, timeouts and output bounds, so it is never used, not even for a command bosun would run unconfined; the output reaches the editor as the call's text content (no terminal id). Recorded when a session opens for an editor that offered a terminal",
    fail: "closed",
    config: [],
  },
  {
    id: "web.address",
    question: "May a web tool connect to the address its host resolved to (checked at every hop)?",
    holders: ["code", "config", "person", "policy"],
    default:
      "a public address, yes (code); one inside this machine or its networks — loopback, private, link-local, carrier-grade NAT, unique-local and site-local IPv6, multicast, reserved, cloud metadata (169.254.169.254 and the like), and IPv4 carried in IPv6 (mapped, compatible, NAT64, 6to4) — only when an allow rule names that address or the host exactly (web:127.0.0.1), never by a wildcard (code refuses); an address a rule denies, never (config, policy). The first address that passes is connected to (pinned: no second lookup), and every redirect is checked again",
    fail: "closed",
    config: ["permission"],
  },
  {
    id: "web.redirect",
    question: "Does a web fetch follow the redirect its server answered with?",
    holders: ["code", "config", "person", "policy"],
    default:
      "to the same host, yes (code), its address checked again (web.address); to another host only when the rules allow web:<host> outright (held by whoever allowed it); a deny refuses; one that would ask is handed back to the model as a new URL to fetch, judged and asked like any call; not a URL, not http(s), or more than 5 redirects: refused (code)",
    fail: "closed",
    config: ["permission"],
  },
  {
    id: "exec.truncate",
    question: "Is a tool result too long to send whole, and what is kept?",
    holders: ["config"],
    default: `over output.max_lines (${DEFAULTS.output.max_lines}) or output.max_bytes (${DEFAULTS.output.max_bytes}): keep the head (the tail for shell); the full text goes to a file the model can read`,
    fail: "closed",
    config: ["output.max_lines", "output.max_bytes"],
  },
  {
    id: "delegate.model",
    question: "Which model does a delegate the task tool starts run on?",
    holders: ["config", "code"],
    default: "the agent's own model (config: its agent file or bosun.json); else its parent's (code)",
    fail: "closed",
    config: ["agent"],
  },
  {
    id: "delegate.authority",
    question: "What may a delegate do: its rules, mode, read-only, tools, workspace, depth and step budget?",
    holders: ["code"],
    default: `never more than its parent, on every axis: every call must pass the parent's rules and its agent's; the stricter mode; read-only if either is (a plan agent's delegates always are); the parent's tools narrowed to the agent's tools list; the parent's workspace, protected files, data-folder guard and policy; the task tool only while the depth allows (delegate.max_depth, ${DEFAULTS.delegate.max_depth}); the agent's max_steps, else delegate.max_steps (${DEFAULTS.delegate.max_steps})`,
    fail: "closed",
    config: ["delegate.max_depth", "delegate.max_steps", "agent"],
  },
  {
    id: "delegate.limit",
    question: "May a task call's delegate start now, or must it wait for a free slot?",
    holders: ["config", "code"],
    default: `past delegate.max_parallel (${DEFAULTS.delegate.max_parallel}) delegates running in the session tree, the next waits for a slot (shown, and ended by cancelling the turn); a delegate at delegate.max_depth (${DEFAULTS.delegate.max_depth}) is not given the task tool at all (its delegate.authority says so), and a call to it anyway names no tool`,
    fail: "closed",
    config: ["delegate.max_depth", "delegate.max_parallel"],
  },
  {
    id: "delegate.recipe",
    question: "Which sub-recipe does a task call run as its delegate, with which parameters — or is it refused?",
    holders: ["code"],
    default:
      "a task call's recipe runs only a sub-recipe of the run's recipe (its sub_recipes; one level), with the call's params over the parent's values for the parameters it shares over its defaults, each inserted as data; its agent (build if none), a mode never looser than the parent's, its checks fed back up to its retries and its response schema asked for again, in the delegate; a name not among them, an unknown parameter or a bad value, another agent or a task_id is refused (an error result naming the allowed ones). Recorded in the parent's ledger",
    fail: "closed",
    config: [],
  },
  {
    id: "storage.cleanup",
    question: "Which of bosun's saved outputs are old enough to delete at start-up?",
    holders: ["config"],
    default: `every saved output (long command output, cut results, under the data folder's overflow/) last written more than storage.output_max_age_days (${DEFAULTS.storage.output_max_age_days}) days ago, and the session folders left empty; recorded when anything is deleted (or could not be: those stay), with how many files and bytes. Apart from that, saved outputs together stay under storage.output_max_mb (${DEFAULTS.storage.output_max_mb}): the oldest are deleted to make room, and a new one stops short, saying so, when nothing older is left`,
    fail: "soft",
    config: ["storage.output_max_age_days", "storage.output_max_mb"],
  },
];

export function findSeat(id: string): Seat | undefined {
  return SEATS.find((seat) => seat.id === id);
}
