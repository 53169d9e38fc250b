import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seededRandom } from "../../../test/support/random.js";
import {
  globToRegExp,
  type MatchContext,
  matchName,
  matchPath,
  matchResource,
  matchShell,
  normalizeCommand,
  normalizePathPattern,
  ruleMatches,
} from "./match.js";

const ctx: MatchContext = { workspace: "/work/proj", home: "/home/u" };

/** [pattern, path, expected] — paths are absolute and resolved, as requests carry them. */
const PATH_CASES: Array<[string, string, boolean]> = [
  // `*` alone: every path, whatever its depth (a bare effect).
  ["*", "/work/proj/src/a.ts", true],
  ["*", "/etc/passwd", true],
  ["*", "/", true],
  // Workspace-relative folders.
  ["src/**", "/work/proj/src/a.ts", true],
  ["src/**", "/work/proj/src/a/b/c.ts", true],
  ["src/**", "/work/proj/src", true],
  ["src/**", "/work/proj/src/.hidden", true],
  ["src/**", "/work/proj/srcx/a.ts", false],
  ["src/**", "/work/proj/lib/src/a.ts", false],
  ["src/**", "/src/a.ts", false],
  ["src/**", "/other/src/a.ts", false],
  ["src/**", "/work/projx/src/a.ts", false],
  ["src/*", "/work/proj/src/a.ts", true],
  ["src/*", "/work/proj/src/.env", true],
  ["src/*", "/work/proj/src/a/b.ts", false],
  ["src/*", "/work/proj/src", false],
  ["./src/**", "/work/proj/src/a.ts", true],
  ["src/", "/work/proj/src/a/b.ts", true],
  ["src/", "/work/proj/srcx", false],
  ["src//a.ts", "/work/proj/src/a.ts", true],
  [".env", "/work/proj/.env", true],
  [".env", "/work/proj/a/.env", false],
  ["package.json", "/work/proj/package.json", true],
  ["package.json", "/work/proj/sub/package.json", false],
  // `*` does not cross `/`.
  ["*.ts", "/work/proj/a.ts", true],
  ["*.ts", "/work/proj/.ts", true],
  ["*.ts", "/work/proj/src/a.ts", false],
  ["*.ts", "/a.ts", false],
  ["*", "/work/proj/a/b", true],
  // `**` crosses `/`; a leading `**/` matches at any depth, inside or outside the workspace.
  ["**", "/work/proj/a/b/c", true],
  ["**", "/etc/passwd", true],
  ["**", "/work/proj", true],
  ["**/*.ts", "/work/proj/a.ts", true],
  ["**/*.ts", "/work/proj/src/deep/a.ts", true],
  ["**/*.ts", "/etc/x.ts", true],
  ["**/*.ts", "/work/proj/a.tsx", false],
  ["**/.env*", "/work/proj/.env", true],
  ["**/.env*", "/work/proj/a/b/.env.local", true],
  ["**/.env*", "/work/proj/.envrc", true],
  ["**/.env*", "/home/u/.env", true],
  ["**/.env*", "/.env", true],
  ["**/.env*", "/work/proj/env", false],
  ["**/.env*", "/work/proj/x.env", false],
  ["**/.env*", "/work/proj/.env/inner", false],
  ["**/.env*/**", "/work/proj/.env/inner", true],
  ["**/config", "/work/proj/.git/config", true],
  ["src/**/test/*.ts", "/work/proj/src/test/a.ts", true],
  ["src/**/test/*.ts", "/work/proj/src/x/y/test/a.ts", true],
  ["src/**/test/*.ts", "/work/proj/src/test/sub/a.ts", false],
  ["src/**/test/*.ts", "/work/proj/src/xtest/a.ts", false],
  ["a**b", "/work/proj/a/x/b", true],
  ["src/**.ts", "/work/proj/src/a/b.ts", true],
  // A file name holding a newline cannot slip past `**`.
  ["**/.env*", "/work/proj/a\nb/.env", true],
  ["src/**", "/work/proj/src/a\nb", true],
  ["src/*", "/work/proj/src/a\nb", true],
  // Absolute patterns.
  ["/etc/**", "/etc/passwd", true],
  ["/etc/**", "/etc", true],
  ["/etc/**", "/etc/ssh/sshd_config", true],
  ["/etc/**", "/etcx/passwd", false],
  ["/etc/**", "/work/proj/etc/passwd", false],
  ["/etc/*", "/etc/ssh/sshd_config", false],
  ["/**", "/anything/at/all", true],
  ["/work/proj/src/**", "/work/proj/src/a.ts", true],
  ["/work/proj", "/work/proj", true],
  ["/work/proj", "/work/proj/a", false],
  // `~` is the home folder.
  ["~/.ssh/**", "/home/u/.ssh/id_rsa", true],
  ["~/.ssh/**", "/home/ux/.ssh/id_rsa", false],
  ["~/.ssh/**", "/work/proj/~/.ssh/id_rsa", false],
  ["~", "/home/u", true],
  ["~", "/home/u/a", false],
  ["~/**", "/home/u/a/b", true],
  // `?` is one character, never `/`.
  ["a?.ts", "/work/proj/a1.ts", true],
  ["a?.ts", "/work/proj/a.ts", false],
  ["a?.ts", "/work/proj/a12.ts", false],
  ["a?b", "/work/proj/a/b", false],
  // Classes.
  ["[ab].ts", "/work/proj/a.ts", true],
  ["[ab].ts", "/work/proj/c.ts", false],
  ["[!ab].ts", "/work/proj/c.ts", true],
  ["[!ab].ts", "/work/proj/a.ts", false],
  ["[^ab].ts", "/work/proj/c.ts", true],
  ["[a-c].ts", "/work/proj/b.ts", true],
  ["[a-c].ts", "/work/proj/d.ts", false],
  ["a[!x]b", "/work/proj/a/b", false],
  ["a[/]b", "/work/proj/a/b", false],
  ["[]].ts", "/work/proj/].ts", true],
  ["[\\d].ts", "/work/proj/d.ts", true],
  ["[\\d].ts", "/work/proj/1.ts", false],
  ["a[b", "/work/proj/a[b", true],
  ["a[b", "/work/proj/ab", false],
  ["[.]env", "/work/proj/.env", true],
  // Alternatives.
  ["src/{a,b}/**", "/work/proj/src/a/x.ts", true],
  ["src/{a,b}/**", "/work/proj/src/b/x.ts", true],
  ["src/{a,b}/**", "/work/proj/src/c/x.ts", false],
  ["*.{ts,tsx}", "/work/proj/a.tsx", true],
  ["*.{ts,tsx}", "/work/proj/a.ts", true],
  ["*.{ts,tsx}", "/work/proj/a.js", false],
  ["{a,{b,c}}.ts", "/work/proj/c.ts", true],
  ["{a,{b,c}}.ts", "/work/proj/d.ts", false],
  ["{**/.env,secrets/**}", "/work/proj/x/.env", true],
  ["{**/.env,secrets/**}", "/work/proj/secrets/k", true],
  ["{a}.ts", "/work/proj/{a}.ts", true],
  ["{a}.ts", "/work/proj/a.ts", false],
  ["a{b", "/work/proj/a{b", true],
  ["{a,b", "/work/proj/{a,b", true],
  // Escapes and regex characters are literal.
  ["\\*.ts", "/work/proj/*.ts", true],
  ["\\*.ts", "/work/proj/a.ts", false],
  ["a+b.(ts)", "/work/proj/a+b.(ts)", true],
  ["a+b.(ts)", "/work/proj/aab.(ts)", false],
  ["a.ts", "/work/proj/axts", false],
  ["$x^|y", "/work/proj/$x^|y", true],
];

describe("matchPath", () => {
  for (const [pattern, path, expected] of PATH_CASES) {
    it(`${JSON.stringify(pattern)} ${expected ? "matches" : "does not match"} ${JSON.stringify(path)}`, () => {
      assert.equal(matchPath(pattern, path, ctx), expected);
    });
  }

  it("matches relative patterns against the workspace itself as the empty path", () => {
    assert.equal(matchPath("**", "/work/proj", ctx), true);
    assert.equal(matchPath("src/**", "/work/proj", ctx), false);
  });

  it("handles a workspace given with a trailing slash, and the root as workspace", () => {
    assert.equal(matchPath("src/**", "/work/proj/src/a", { ...ctx, workspace: "/work/proj/" }), true);
    assert.equal(matchPath("etc/**", "/etc/passwd", { ...ctx, workspace: "/" }), true);
    assert.equal(matchPath("etc/**", "/etcx/passwd", { ...ctx, workspace: "/" }), false);
  });

  it("expands ~ with a home that has a trailing slash", () => {
    assert.equal(matchPath("~/.ssh/**", "/home/u/.ssh/k", { ...ctx, home: "/home/u/" }), true);
  });

  it("normalizes patterns: ~, ./, //, a trailing /", () => {
    assert.equal(normalizePathPattern("~/a", "/h"), "/h/a");
    assert.equal(normalizePathPattern("~", "/h"), "/h");
    assert.equal(normalizePathPattern("~x", "/h"), "~x");
    assert.equal(normalizePathPattern("././src/**", "/h"), "src/**");
    assert.equal(normalizePathPattern("src//a", "/h"), "src/a");
    assert.equal(normalizePathPattern("src/", "/h"), "src/**");
    assert.equal(normalizePathPattern("/", "/h"), "/");
  });
});

/** [pattern, command, expected] */
const SHELL_CASES: Array<[string, string, boolean]> = [
  ["git status *", "git status", true],
  ["git status *", "git status --short", true],
  ["git status *", "git status --short --branch", true],
  ["git status *", "git statusx", false],
  ["git status *", "git", false],
  ["git status *", "git stat", false],
  ["git status *", "sudo git status", false],
  ["git status *", "git  status   -s", true],
  ["git status *", "git status\t-s", true],
  ["git status *", "  git status  ", true],
  ["git status*", "git statusx", true],
  ["git status*", "git status", true],
  ["git status*", "git status --short", true],
  ["git status", "git status", true],
  ["git status", "git status -s", false],
  ["git  status  *", "git status -s", true],
  ["*", "", true],
  ["*", "rm -rf /", true],
  ["npm run *", "npm run test -- --watch", true],
  ["npm run *", "npm runx", false],
  ["npm run *", "npm install", false],
  ["* --help", "git --help", true],
  ["* --help", "git --helpx", false],
  ["rm *", "rm -rf /", true],
  ["rm *", "rmdir x", false],
  ["git * --dry-run", "git push origin main --dry-run", true],
  ["git * --dry-run", "git push --dry-run=no", false],
  // Everything but `*` is literal.
  ["echo (a|b) *", "echo (a|b) x", true],
  ["echo (a|b) *", "echo a x", false],
  ["ls ?", "ls ?", true],
  ["ls ?", "ls a", false],
  ["ls [ab]", "ls a", false],
  ["ls [ab]", "ls [ab]", true],
  ["grep a\\.b *", "grep a\\.b file", true],
  ["grep a.b *", "grep axb file", false],
  // A newline inside an argument is still matched.
  ["git commit *", 'git commit -m "a\nb"', true],
  ["rm *", 'rm "a\nb"', true],
];

describe("matchShell", () => {
  for (const [pattern, command, expected] of SHELL_CASES) {
    it(`${JSON.stringify(pattern)} ${expected ? "matches" : "does not match"} ${JSON.stringify(command)}`, () => {
      assert.equal(matchShell(pattern, command), expected);
    });
  }

  it("normalizes whitespace runs to one space and trims", () => {
    assert.equal(normalizeCommand("  git \t status\n -s  "), "git status -s");
  });
});

/** [action, pattern, resource, expected] */
const NAME_CASES: Array<["web" | "delegate" | "mcp" | "skill", string, string, boolean]> = [
  ["web", "*.github.com", "api.github.com", true],
  ["web", "*.github.com", "a.b.github.com", true],
  ["web", "*.github.com", "github.com", false],
  ["web", "*.github.com", "evilgithub.com", false],
  ["web", "*.github.com", "API.GitHub.COM", true],
  ["web", "*.github.com", "api.github.com.", true],
  ["web", "github.com", "GITHUB.COM", true],
  ["web", "GitHub.com", "github.com", true],
  ["web", "github.com", "github.com.evil.net", false],
  ["web", "*", "anything", true],
  ["mcp", "github/*", "github/create_issue", true],
  ["mcp", "github/*", "githubx/create_issue", false],
  ["mcp", "github/*", "GitHub/create_issue", false],
  ["mcp", "*/read_*", "fs/read_file", true],
  ["mcp", "*/read_*", "fs/write_file", false],
  ["mcp", "fs/read_file", "fs/read_file", true],
  ["delegate", "explore", "explore", true],
  ["delegate", "explore", "explorer", false],
  ["delegate", "*", "general", true],
  ["skill", "pdf*", "pdf-tools", true],
  ["skill", "pdf*", "my-pdf", false],
  ["skill", "a.b", "axb", false],
  ["skill", "a?b", "axb", false],
  ["skill", "a?b", "a?b", true],
];

describe("matchResource for web, delegate, mcp, skill", () => {
  for (const [action, pattern, resource, expected] of NAME_CASES) {
    it(`${action} ${JSON.stringify(pattern)} ${expected ? "matches" : "does not match"} ${JSON.stringify(resource)}`, () => {
      assert.equal(matchResource(action, pattern, resource, ctx), expected);
    });
  }

  it("matchName treats only * as special", () => {
    assert.equal(matchName("a*c", "a/b/c"), true);
    assert.equal(matchName("(x)", "(x)"), true);
    assert.equal(matchName("(x)", "x"), false);
  });
});

describe("ruleMatches", () => {
  it("needs the same action", () => {
    assert.equal(ruleMatches({ action: "edit", pattern: "*" }, { action: "read", resource: "/a" }, ctx), false);
    assert.equal(ruleMatches({ action: "read", pattern: "*" }, { action: "read", resource: "/a" }, ctx), true);
  });

  it("uses path matching for read, edit and external_directory, shell matching for shell", () => {
    for (const action of ["read", "edit", "external_directory"] as const) {
      assert.equal(ruleMatches({ action, pattern: "src/*" }, { action, resource: "/work/proj/src/a" }, ctx), true);
      assert.equal(ruleMatches({ action, pattern: "src/*" }, { action, resource: "/work/proj/src/a/b" }, ctx), false);
    }
    // For shell, `*` crosses `/`; for paths it does not.
    assert.equal(
      ruleMatches({ action: "shell", pattern: "cat *" }, { action: "shell", resource: "cat a/b/c" }, ctx),
      true,
    );
  });
});

/**
 * An independent matcher (backtracking over the pattern text) for the glob core — `*`, `?`,
 * `**`, literals — checked against the compiled regular expressions on random inputs.
 */
function referenceGlob(p: string, s: string): boolean {
  const go = (i: number, j: number): boolean => {
    if (i === p.length) return j === s.length;
    if (p[i] === "/" && p.startsWith("**", i + 1) && i + 3 === p.length) {
      return j === s.length || s[j] === "/";
    }
    if (p.startsWith("**", i)) {
      const wholeSegment = (i === 0 || p[i - 1] === "/") && p[i + 2] === "/";
      if (wholeSegment) {
        if (go(i + 3, j)) return true;
        for (let t = j; t < s.length; t++) if (s[t] === "/" && go(i + 3, t + 1)) return true;
        return false;
      }
      let k = i + 2;
      while (p[k] === "*") k++;
      for (let t = j; t <= s.length; t++) if (go(k, t)) return true;
      return false;
    }
    if (p[i] === "*") {
      for (let t = j; t <= s.length; t++) {
        if (go(i + 1, t)) return true;
        if (s[t] === "/") return false;
      }
      return false;
    }
    if (p[i] === "?") return j < s.length && s[j] !== "/" && go(i + 1, j + 1);
    return j < s.length && s[j] === p[i] && go(i + 1, j + 1);
  };
  return go(0, 0);
}

const random = seededRandom;

describe("globToRegExp against a reference matcher", () => {
  it("agrees on 20000 random patterns and paths", () => {
    const rand = random(42);
    const pick = (alphabet: string, max: number) => {
      const length = Math.floor(rand() * (max + 1));
      let out = "";
      for (let i = 0; i < length; i++) out += alphabet[Math.floor(rand() * alphabet.length)];
      return out;
    };
    let matched = 0;
    for (let n = 0; n < 20000; n++) {
      const pattern = pick("ab/*?.+", 8);
      const path = pick("ab/.+", 9);
      const expected = referenceGlob(pattern, path);
      if (expected) matched++;
      assert.equal(
        globToRegExp(pattern).test(path),
        expected,
        `pattern ${JSON.stringify(pattern)} path ${JSON.stringify(path)}`,
      );
    }
    // The random cases must exercise matches too, not only misses.
    assert.ok(matched > 500, `only ${matched} matches`);
  });
});
