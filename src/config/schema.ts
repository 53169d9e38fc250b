import { z } from "zod";
import { DEFAULT_MODE, MODE_NAMES } from "../contracts/modes.js";
import { DEFAULTS, ENTRY_DEFAULTS } from "./defaults.js";

/**
 * The shape of `bosun.json`. Every object is strict: an unknown key is an error that names
 * the file and suggests the closest known key, never a value silently ignored.
 * Descriptions here become the editor hints in `schema/bosun.schema.json`.
 */

/** Node's HTTP client gives up on its own after 300 s without headers or body bytes: a longer bound could not hold. */
const WAIT_MAX_MS = 300_000;
const waitKeys = (of: string) => ({
  timeout_ms: z
    .int()
    .positive()
    .max(WAIT_MAX_MS)
    .optional()
    .describe(`Milliseconds to wait for ${of} response headers before giving up (class timeout); at most 300000`),
  idle_ms: z
    .int()
    .positive()
    .max(WAIT_MAX_MS)
    .optional()
    .describe(
      `Milliseconds ${of} stream may stay silent between two chunks before giving up (class timeout); at most 300000`,
    ),
});

/** The longest a Node timer can wait (ms); a longer delay fires at once. */
const TIMER_MAX_MS = 2_147_483_647;

/** How much a model thinks before it answers (model/reasoning.ts maps it onto each provider's options). */
export const ReasoningSchema = z
  .strictObject({
    effort: z
      .enum(["minimal", "low", "medium", "high"])
      .optional()
      .describe(
        "How hard the model thinks: minimal, low, medium or high (a token budget where the provider takes one)",
      ),
    budget_tokens: z
      .int()
      .min(1024)
      .optional()
      .describe("Tokens the model may spend thinking (Anthropic, Google); at least 1024"),
  })
  .describe("Reasoning (thinking) options; an agent's override its model's");

const ModelInfoSchema = z
  .strictObject({
    context: z.int().positive().optional().describe("Context window in tokens"),
    output: z.int().positive().optional().describe("Maximum output tokens per response"),
    tools: z
      .union([z.boolean(), z.enum(["native", "text", "none"])], {
        error: 'expected true, false, "native", "text" or "none"',
      })
      .optional()
      .describe(
        'How the model takes tools: "native" (or true) as tool definitions, "text" described in the system prompt with calls read from its answer, "none" (or false) not at all',
      ),
    images: z.boolean().optional().describe("Whether the model accepts image input"),
    edit_tool: z
      .enum(["edit", "apply_patch"])
      .optional()
      .describe(
        "How the model changes part of a file: edit (exact strings) or apply_patch (Codex's patch format); default apply_patch for OpenAI gpt-*, o* and codex models, edit for the rest",
      ),
    price: z
      .strictObject({
        input: z.number().min(0).describe("US dollars per million input tokens"),
        output: z.number().min(0).describe("US dollars per million output tokens"),
        cacheRead: z.number().min(0).optional().describe("US dollars per million cached input tokens read"),
        cacheWrite: z.number().min(0).optional().describe("US dollars per million input tokens written to cache"),
      })
      .optional()
      .describe("Prices, for the cost shown in bosun sessions show"),
    reasoning: ReasoningSchema.optional(),
    ...waitKeys("this model's"),
  })
  .describe("Limits and capabilities of one model; overrides the built-in catalog");

const ProviderSchema = z
  .strictObject({
    type: z
      .enum(["anthropic", "openai", "openai-compatible", "google", "azure", "bedrock", "vertex", "openrouter", "npm"])
      .optional()
      .describe(
        "Wire protocol; defaults to the provider's name when that is a built-in provider. vertex serves Gemini, and Anthropic models by a claude- id; npm loads the package named by npm",
      ),
    npm: z
      .string()
      // A package name, never a path: a path would load any file as provider code.
      .regex(
        /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/,
        "must be an npm package name such as @ai-sdk/mistral, not a path",
      )
      .optional()
      .describe(
        'For type "npm": an AI SDK provider package, e.g. "@ai-sdk/mistral", from bosun\'s node_modules or <BOSUN_HOME>/providers/node_modules; its create* export is used. From a repository\'s config only when trusted (project.trust)',
      ),
    // The SDKs build the host from these (https://<resource>.openai.azure.com, bedrock-runtime.<region>.amazonaws.com,
    // <location>-aiplatform.googleapis.com): a "/", "#" or "." in one would send the key to another host.
    resourceName: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9-]*$/, "must be an Azure resource name (letters, digits, hyphens)")
      .optional()
      .describe('For type "azure": the resource name (else AZURE_RESOURCE_NAME or baseURL)'),
    apiVersion: z.string().optional().describe('For type "azure": the API version'),
    region: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, "must be an AWS region such as us-east-1")
      .optional()
      .describe('For type "bedrock": the AWS region (else AWS_REGION)'),
    project: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.:-]*$/, "must be a Google Cloud project id such as my-project")
      .optional()
      .describe('For type "vertex": the Google Cloud project (else GOOGLE_VERTEX_PROJECT)'),
    location: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, "must be a location such as us-east5 or global")
      .optional()
      .describe('For type "vertex": the location (else GOOGLE_VERTEX_LOCATION)'),
    api: z
      .enum(["responses", "chat"])
      .optional()
      .describe('For type "openai": the Responses API (default) or Chat Completions'),
    baseURL: z.string().optional().describe("API endpoint, e.g. http://127.0.0.1:11434/v1 for Ollama"),
    apiKey: z.string().optional().describe('API key; write "{env:NAME}" to read it from the environment'),
    headers: z.record(z.string(), z.string()).optional().describe("Extra HTTP headers sent with every request"),
    models: z
      .record(z.string(), ModelInfoSchema)
      .optional()
      .describe("Models of this provider, by id; with a models map, any other id is an error unless any_model is set"),
    any_model: z
      .boolean()
      .optional()
      .describe(
        "Accept a model id not in models, sent as written (with assumed limits, 32k context and 4k output); without a models map any id is accepted",
      ),
    ...waitKeys("this provider's"),
  })
  .describe("A model provider");

const ModeSchema = z.enum(MODE_NAMES);

/** "auto, approve (the default), smart or chat": the default named from where it is decided. */
function modeList(): string {
  const names = MODE_NAMES.map((name) => (name === DEFAULT_MODE ? `${name} (the default)` : name));
  return `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

const EffectSchema = z.enum(["allow", "ask", "deny"]);
const ActionRulesSchema = z.union([EffectSchema, z.record(z.string(), EffectSchema)], {
  error: 'expected "allow", "ask", "deny", or an object of pattern → "allow" | "ask" | "deny"',
});
const actionRules = (what: string) => ActionRulesSchema.optional().describe(what);

/** The actions a rule can name; each takes an effect, or patterns → effect (the last match wins). */
const PermissionSchema = z
  .strictObject({
    read: actionRules("Reading files, by path glob"),
    edit: actionRules("Changing files (edit, write, shell redirections), by path glob"),
    shell: actionRules('Shell commands, each simple command on its own, e.g. { "git status *": "allow" }'),
    external_directory: actionRules("Paths outside the workspace, by path glob"),
    web: actionRules("Web requests, by host"),
    delegate: actionRules("Starting a delegate agent, by agent name"),
    mcp: actionRules('MCP tools, as "server/tool"'),
    skill: actionRules("Loading a skill, by name"),
    question: actionRules('Asking the person a question (the question tool), as "person"'),
    job: actionRules("Reading or stopping a background job this run started (shell_output, shell_kill), by job id"),
    todo: actionRules('The agent keeping its plan (the todo tool), as "list"'),
  })
  .describe("Permission rules by action; later layers and later patterns win");

const HookSchema = z
  .strictObject({
    command: z.string().min(1).describe("Shell command; gets the call as JSON on stdin"),
    tools: z.array(z.string().min(1)).optional().describe('Tool names it applies to ("*" wildcards); default all'),
    timeout_ms: z
      .int()
      .positive()
      .optional()
      .describe(`Time limit (default ${ENTRY_DEFAULTS.hook.timeout_ms}); a hook that overruns has failed`),
    on_error: z
      .enum(["deny", "allow"])
      .optional()
      .describe(
        `pre_tool, user_prompt_submit: what a hook that crashes or times out means (default ${ENTRY_DEFAULTS.hook.on_error}: deny, block)`,
      ),
  })
  .describe("A hook command");

/** One agent: `agent.<name>` in bosun.json, or the front matter of an agent file (config/agent-files.ts). */
export const AgentEntrySchema = z.strictObject({
  description: z.string().optional().describe("What the agent is for"),
  model: z.string().optional().describe('The agent\'s model, "provider/model"'),
  prompt: z.string().optional().describe("System prompt that replaces the built-in one"),
  read_only: z
    .boolean()
    .optional()
    .describe("Deny every edit, every shell command not proven read-only, and unannotated MCP tools"),
  mode: ModeSchema.optional().describe("Permission mode while this agent runs; --mode overrides it"),
  permission: PermissionSchema.optional().describe("Rules for this agent, after every config layer's"),
  tools: z
    .array(z.string().min(1))
    .optional()
    .describe(
      'Tools the agent may use, by name ("*" wildcards, e.g. "mcp__github__*"), of those its parent has; default all. A name no tool has matches nothing',
    ),
  max_steps: z.int().positive().optional().describe("The agent's step budget: at most this many model steps"),
  reasoning: ReasoningSchema.optional(),
});

export const ConfigSchema = z
  .strictObject({
    $schema: z.string().optional().describe("JSON Schema reference, for editors"),
    model: z.string().optional().describe('Default model as "provider/model", e.g. "anthropic/claude-sonnet-4-5"'),
    fallback: z
      .array(z.string())
      .optional()
      .describe("Models to try, in order, when the chosen one fails; the only way bosun falls back"),
    provider: z.record(z.string(), ProviderSchema).optional().describe("Model providers, by name"),
    max_steps: z.int().positive().optional().describe("Maximum model steps in one turn"),
    retry: z
      .strictObject({
        max_attempts: z.int().min(1).optional().describe("Attempts per model request, the first included"),
        max_delay_ms: z.int().min(0).optional().describe("Upper bound on one backoff delay, in milliseconds"),
      })
      .optional()
      .describe("Retry of failed model requests"),
    model_wait: z
      .strictObject(waitKeys("a model's"))
      .optional()
      .describe(
        'Bounds on waiting for a model; provider.<name> and its models may override them. Also written inside model: {"id": …, "timeout_ms": …}',
      ),
    repeat_limit: z
      .int()
      .min(2)
      .optional()
      .describe("Stop a turn when the same tool is called with the same arguments this many times in a row"),
    parallel_calls: z.int().min(1).max(64).optional().describe("Tool calls of one response that may run at once"),
    output: z
      .strictObject({
        max_lines: z
          .int()
          .positive()
          .optional()
          .describe("Lines of a tool result the model sees; the rest goes to a file"),
        max_bytes: z
          .int()
          .positive()
          .optional()
          .describe("Bytes of a tool result the model sees; the rest goes to a file"),
      })
      .optional()
      .describe("Bounds on tool output sent to the model"),
    shell: z
      .strictObject({
        // A Node timer waits at most 2^31-1 ms: a longer one fires at once (the command killed, or a check not run).
        timeout_ms: z.int().positive().max(TIMER_MAX_MS).optional().describe("Default timeout of a shell command"),
        max_timeout_ms: z
          .int()
          .positive()
          .max(TIMER_MAX_MS)
          .optional()
          .describe("Largest timeout a shell call may ask for"),
        sandbox: z
          .enum(["on", "off"])
          .optional()
          .describe(
            'Commands run because they were proven read-only run confined (bubblewrap); "off" trusts the analysis alone',
          ),
      })
      .optional()
      .describe("The shell tool"),
    storage: z
      .strictObject({
        output_max_mb: z
          .int()
          .positive()
          .optional()
          .describe(
            "Most megabytes bosun's saved outputs (long command output, cut results) take together; the oldest go first",
          ),
        output_max_age_days: z
          .number()
          .positive()
          .optional()
          .describe("Saved outputs older than this many days are deleted when bosun starts"),
      })
      .optional()
      .describe("bosun's own files under the data folder"),
    review: z
      .strictObject({
        checks: z
          .array(
            z.strictObject({
              name: z.string().min(1).describe("What the check is called in the review's report"),
              command: z.string().min(1).describe("Shell command; exit 0 is a pass"),
            }),
          )
          .optional()
          .describe(
            "Commands `bosun review` runs before the reviewer reads the diff (tests, lint); every layer's run (a repository's cannot replace yours), a repository's judged like a shell call it brings",
          ),
      })
      .optional()
      .describe("`bosun review`: the checks it runs first"),
    goal: z
      .strictObject({
        max_steps: z
          .int()
          .positive()
          .optional()
          .describe("Most model steps a turn with a goal (--until, /goal, a recipe's checks) takes before it fails"),
        max_seconds: z
          .number()
          .positive()
          .optional()
          .describe("Most seconds a turn with a goal takes, its checks included, before it fails"),
        max_cost: z
          .number()
          .positive()
          .optional()
          .describe(
            "Most US dollars a turn with a goal spends (counted where the model's prices are known) before it fails",
          ),
      })
      .optional()
      .describe("Budgets of a turn that goes on until its goal's commands pass"),
    undo: z
      .strictObject({
        enabled: z
          .boolean()
          .optional()
          .describe(
            "Snapshot the work tree before steps that may change files, so /undo and bosun undo can put them back",
          ),
        max_file_bytes: z
          .int()
          .positive()
          .optional()
          .describe("Files larger than this are left out of snapshots: undo does not bring them back"),
      })
      .optional()
      .describe("Undo: snapshots of the work tree in a shadow git repository under the data folder"),
    mode: ModeSchema.optional().describe(`Permission mode: ${modeList()}; --mode and an agent's mode override it`),
    permission: PermissionSchema.optional(),
    small_model: z
      .string()
      .optional()
      .describe('Model for small jobs such as session titles, "provider/model"; default the session\'s model'),
    judge_model: z
      .string()
      .optional()
      .describe('Model that judges unknown shell commands in smart mode, "provider/model"; default the session\'s'),
    hooks: z
      .strictObject({
        pre_tool: z.array(HookSchema).optional().describe("Run before a call; may deny it or make it ask"),
        post_tool: z.array(HookSchema).optional().describe("Run after a call; may add context for the model"),
        stop: z
          .array(HookSchema)
          .optional()
          .describe("Run when the turn would end as done; may send the agent back to work with a reason"),
        subagent_stop: z
          .array(HookSchema)
          .optional()
          .describe("Run when a delegate (the task tool's) would end as done; like stop, for the delegate"),
        user_prompt_submit: z
          .array(HookSchema)
          .optional()
          .describe("Run on the person's message before the turn; may block it or add context for the model"),
        session_start: z
          .array(HookSchema)
          .optional()
          .describe("Run when a session opens; its output is added for the model"),
        notification: z
          .array(HookSchema)
          .optional()
          .describe("Run when bosun waits for the person (an approval ask, an MCP server's form); not waited for"),
        pre_compact: z
          .array(HookSchema)
          .optional()
          .describe("Run before a compaction; its output adds to the summary's instructions"),
        stop_limit: z
          .int()
          .min(0)
          .optional()
          .describe("How many times stop hooks may send the agent back in one turn; past it the turn stops (limit)"),
      })
      .optional()
      .describe("Commands run around tool calls, with the call as JSON on stdin; every layer's hooks run"),
    mcp: z
      .record(
        z.string().regex(/^[A-Za-z0-9_-]+$/, "an MCP server name may hold letters, digits, _ and -"),
        z
          .strictObject({
            command: z.string().min(1).optional().describe("Program that runs the server (stdio); or give url"),
            url: z
              .url({ protocol: /^https?$/ })
              .optional()
              .describe("Address of a remote server (Streamable HTTP, falling back to SSE); or give command"),
            headers: z
              .record(z.string(), z.string())
              .optional()
              .describe("HTTP headers sent to a url server; values may read {env:NAME}"),
            oauth: z
              .union([
                z.literal(false),
                z.strictObject({
                  client_id: z
                    .string()
                    .min(1)
                    .optional()
                    .describe(
                      "A client id the server gave you; default: bosun registers itself (dynamic registration)",
                    ),
                  scope: z
                    .string()
                    .min(1)
                    .optional()
                    .describe("Scopes to ask for, space-separated; default the server's"),
                }),
              ])
              .optional()
              .describe(
                "OAuth sign-in for a url server (`bosun mcp login <name>`); false: never, headers only. Default: used when the server asks and no Authorization header is set",
              ),
            type: z
              .enum(["stdio", "http", "sse"])
              .optional()
              .describe("How to reach it; default stdio for command, http (then SSE on a 4xx) for url"),
            args: z.array(z.string()).optional().describe("Its arguments"),
            env: z
              .record(z.string(), z.string())
              .optional()
              .describe("Extra environment for it (it gets no keys of yours otherwise)"),
            enabled: z.boolean().optional().describe("false leaves the server off"),
            required: z
              .boolean()
              .optional()
              .describe(
                "true: a server that fails to start stops the run; otherwise bosun warns and goes on without it",
              ),
            timeout_ms: z
              .int()
              .positive()
              .optional()
              .describe(`Time limit of one tool call (default ${ENTRY_DEFAULTS.mcp_server.timeout_ms})`),
            max_timeout_ms: z
              .int()
              .positive()
              .optional()
              .describe(
                `Longest a call may run while the server reports progress, each report restarting timeout_ms (default ${ENTRY_DEFAULTS.mcp_server.max_timeout_ms})`,
              ),
          })
          // Exactly one way to reach it: a server with both, or neither, would be a guess.
          .refine((server) => (server.command === undefined) !== (server.url === undefined), {
            message: "give an MCP server exactly one of command (a program to run) or url (a remote server)",
          })
          .refine((server) => server.oauth === undefined || server.url !== undefined, {
            message: "oauth goes with url (a remote server)",
          })
          .refine(
            (server) => server.type === undefined || (server.type === "stdio") === (server.command !== undefined),
            {
              message: 'type "stdio" goes with command; "http" and "sse" go with url',
            },
          ),
      )
      .optional()
      .describe("MCP servers by name; their tools are offered as mcp__<server>__<tool>"),
    web: z
      .strictObject({
        search: z
          .strictObject({
            provider: z
              .enum(["brave", "tavily", "native"])
              .describe(
                "Who answers websearch: the Brave Search API, Tavily, or \"native\": the model provider's own web search (Anthropic; OpenAI's Responses API), offered only when the rules allow web:search outright",
              ),
            api_key: z
              .string()
              .optional()
              .describe('The search API\'s key (brave, tavily); write "{env:NAME}" to read it from the environment'),
            url: z
              .url({ protocol: /^https?$/ })
              .optional()
              .describe("The search API's endpoint, in place of the provider's own (a proxy, a test server)"),
          })
          .optional()
          .describe("The websearch tool's backend; without it, websearch is not offered"),
      })
      .optional()
      .describe("The web tools: webfetch (always offered) and websearch"),
    instructions: z
      .strictObject({
        files: z
          .array(z.string().min(1))
          .optional()
          .describe(
            "More instruction files: paths or globs (relative to the file that names them) and https URLs (fetched with a timeout; the last good copy is used when a fetch fails)",
          ),
        claude_md: z
          .boolean()
          .optional()
          .describe(`Read CLAUDE.md where no AGENTS.md sits beside it (default ${DEFAULTS.instructions.claude_md})`),
        fetch_timeout_ms: z.int().positive().optional().describe("Time limit of fetching one instruction URL"),
      })
      .optional()
      .describe("Instruction files the model sees, after the AGENTS.md files"),
    delegate: z
      .strictObject({
        max_depth: z
          .int()
          .min(0)
          .max(8)
          .optional()
          .describe(
            "How deep delegates may nest: 1 lets the session start delegates, which start none; 0 offers no task tool",
          ),
        max_parallel: z
          .int()
          .min(1)
          .max(32)
          .optional()
          .describe("Delegates of one session tree running at once; the rest wait their turn"),
        max_steps: z.int().positive().optional().describe("A delegate's step budget when its agent sets no max_steps"),
        result_max_chars: z
          .int()
          .min(200)
          .optional()
          .describe("The most of a delegate's final text its parent's model is given"),
      })
      .optional()
      .describe("Delegation through the task tool: every delegate has at most its parent's authority"),
    compaction: z
      .strictObject({
        auto: z
          .boolean()
          .optional()
          .describe("Compact when the conversation nears the window; false: an overflow is an error that says so"),
        threshold: z
          .number()
          .gt(0)
          .max(1)
          .optional()
          .describe("Share of the context window at which to compact, before each request"),
        keep_tokens: z
          .int()
          .min(0)
          .optional()
          .describe("Newest exchanges kept verbatim after a compaction, in estimated tokens"),
        prune_tokens: z
          .int()
          .min(0)
          .optional()
          .describe("Old tool outputs beyond this many estimated tokens are sent as a one-line note"),
        model: z
          .string()
          .optional()
          .describe('Model that writes the summary, "provider/model"; default the session\'s model'),
      })
      .optional()
      .describe("How a long session stays within the model's context window"),
    agent: z
      .record(z.string(), AgentEntrySchema)
      .optional()
      .describe("Agents by name; bosun run --agent <name> picks one"),
  })
  .describe("bosun configuration");

export type Config = z.infer<typeof ConfigSchema>;

/**
 * Environment variables that set a single key. Each names the key path and how its text
 * becomes a value; a value that does not convert is a config error naming the variable.
 */
export const ENV_KEYS: ReadonlyArray<{ variable: string; path: string[]; kind: "string" | "integer" }> = [
  { variable: "BOSUN_MODEL", path: ["model"], kind: "string" },
  { variable: "BOSUN_MAX_STEPS", path: ["max_steps"], kind: "integer" },
];
