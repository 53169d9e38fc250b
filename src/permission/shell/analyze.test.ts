import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { homedir } from "node:os";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Parser } from "web-tree-sitter";
import { analyzeShell, classifyCommand, MAX_NESTING, type ShellRequest } from "./analyze.js";
import { decodeAnsiC, loadParser, MAX_NODE_DEPTH, parseShell, ShellParseError, type Stmt, type Word } from "./parse.js";

const W = "/work/proj";
const ctx = { cwd: W, workspace: W };

function show(request: ShellRequest): string {
  const flag = request.action === "shell" ? (request.readOnly ? ":ro" : ":rw") : "";
  return `${request.action}:${request.resource}${flag}`;
}

async function requests(line: string, context = ctx): Promise<string[]> {
  const result = await analyzeShell(line, context);
  assert.equal(result.parsed, true, `${JSON.stringify(line)} not parsed: ${result.problem}`);
  return result.requests.map(show);
}

async function shells(line: string): Promise<string[]> {
  return (await requests(line)).filter((r) => r.startsWith("shell:"));
}

async function notParsed(line: string): Promise<string> {
  const result = await analyzeShell(line, ctx);
  assert.equal(result.parsed, false, `${JSON.stringify(line)} parsed: ${JSON.stringify(result.requests.map(show))}`);
  assert.deepEqual(result.requests, []);
  assert.ok(result.problem);
  return result.problem;
}

describe("analyzeShell: every simple command is its own request", () => {
  it("splits lists, pipes, background jobs and newlines", async () => {
    assert.deepEqual(await shells("a && b || c; d | e & f\ng"), [
      "shell:a:rw",
      "shell:b:rw",
      "shell:c:rw",
      "shell:d:rw",
      "shell:e:rw",
      "shell:f:rw",
      "shell:g:rw",
    ]);
    assert.deepEqual(await shells("ls |& grep x"), ["shell:ls:ro", "shell:grep x:ro"]);
  });

  it("normalizes each command's words to single spaces", async () => {
    assert.deepEqual(await shells("git   status \\\n  --short"), ["shell:git status --short:ro"]);
    assert.deepEqual(await shells("  ls\t-la  "), ["shell:ls -la:ro"]);
  });

  it("looks inside subshells, groups, conditionals, loops, case and functions", async () => {
    assert.deepEqual(await shells("(a; { b; })"), ["shell:a:rw", "shell:b:rw"]);
    assert.deepEqual(await shells("if a; then b; elif c; then d; else e; fi"), [
      "shell:a:rw",
      "shell:b:rw",
      "shell:c:rw",
      "shell:d:rw",
      "shell:e:rw",
    ]);
    assert.deepEqual(await shells("while a; do b; done; until c; do d; done"), [
      "shell:a:rw",
      "shell:b:rw",
      "shell:c:rw",
      "shell:d:rw",
    ]);
    assert.deepEqual(await shells("for i in $(a); do b; done; for ((i=0; i<$(c); i++)); do d; done"), [
      "shell:a:rw",
      "shell:b:rw",
      "shell:c:rw",
      "shell:d:rw",
      // arithmetic on a variable: i's value could hold code
      "shell:for ((i=0; i<$(c); i++)); do d; done:rw",
    ]);
    assert.deepEqual(await shells("select x in $(a); do b; done"), ["shell:a:rw", "shell:b:rw"]);
    assert.deepEqual(await shells("case $(a) in $(b)) c;; *) d;; esac"), [
      "shell:a:rw",
      "shell:b:rw",
      "shell:c:rw",
      "shell:d:rw",
    ]);
    assert.deepEqual(await shells("f() { a; }; function g { b; }; h() ( c )"), [
      "shell:a:rw",
      "shell:b:rw",
      "shell:c:rw",
    ]);
    assert.deepEqual(await shells("! a"), ["shell:a:rw"]);
  });

  it("finds commands in substitutions wherever they appear", async () => {
    // arguments, quoted or not, $( ) and backticks
    assert.deepEqual(await shells('echo $(a) "$(b)" `c` x$(d)y'), [
      'shell:echo $(a) "$(b)" `c` x$(d)y:ro',
      "shell:a:rw",
      "shell:b:rw",
      "shell:c:rw",
      "shell:d:rw",
    ]);
    // assignments, prefix assignments, declarations, arrays
    assert.deepEqual(await shells("x=$(a); y=`b` ls; export z=$(c); w=(1 $(d))"), [
      "shell:x=$(a):ro",
      "shell:a:rw",
      "shell:y=`b` ls:ro",
      "shell:b:rw",
      "shell:export z=$(c):ro",
      "shell:c:rw",
      "shell:w=(1 $(d)):ro",
      "shell:d:rw",
    ]);
    // redirection targets, here-strings, here-documents, process substitution
    assert.deepEqual(await shells("ls > $(a) < <(b); cat <<< $(c); cat <<EOF\n$(d)\nEOF"), [
      "shell:ls:ro",
      "shell:a:rw",
      "shell:> $(a):rw", // may be /dev/tcp/...
      "shell:b:rw",
      "shell:cat:ro",
      "shell:c:rw",
      "shell:d:rw",
    ]);
    // parameter expansion, arithmetic, test commands
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion
    assert.deepEqual(await shells("echo ${x:-$(a)} $((1 + $(b))); [[ $(c) ]]; (( $(d) ))"), [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion
      "shell:echo ${x:-$(a)} $((1 + $(b))):ro",
      "shell:a:rw",
      "shell:b:rw",
      "shell:c:rw",
      "shell:d:rw",
      // the output of a substitution is evaluated as arithmetic: it could be code
      "shell:$((1 + $(b))):rw",
      "shell:(( $(d) )):rw",
    ]);
    // nested substitutions
    assert.deepEqual(await shells("echo $(echo $(rm x))"), [
      "shell:echo $(echo $(rm x)):ro",
      "shell:echo $(rm x):ro",
      "shell:rm x:rw",
    ]);
  });

  it("does not look inside quoted here-documents (their text is data)", async () => {
    assert.deepEqual(await shells("cat <<'EOF'\n$(rm x)\nEOF"), ["shell:cat:ro"]);
  });

  it("returns each request once", async () => {
    assert.deepEqual(await requests("ls; ls; echo > f; echo > f"), ["shell:ls:ro", "shell:echo:ro", `edit:${W}/f`]);
  });

  it("sets readOnly on shell requests only", async () => {
    const result = await analyzeShell("echo x > /tmp/y", ctx);
    for (const r of result.requests) assert.equal("readOnly" in r, r.action === "shell", JSON.stringify(r));
  });
});

describe("analyzeShell: commands that run other commands", () => {
  it("analyzes bash -c, sh -c, zsh -c and dash -c strings", async () => {
    for (const shell of ["bash", "sh", "zsh", "dash"]) {
      assert.deepEqual(await shells(`${shell} -c "ls; rm x"`), [
        `shell:${shell} -c "ls; rm x":rw`,
        "shell:ls:ro",
        "shell:rm x:rw",
      ]);
    }
    assert.deepEqual(await shells("bash -e -o pipefail -c 'cat a'"), [
      "shell:bash -e -o pipefail -c 'cat a':ro",
      "shell:cat a:ro",
    ]);
  });

  it("marks a shell string read-only only when everything in it is", async () => {
    assert.deepEqual(await requests("sh -c 'ls > out'"), ["shell:sh -c 'ls > out':rw", "shell:ls:ro", `edit:${W}/out`]);
    assert.deepEqual(await requests("sh -c 'git status'"), ["shell:sh -c 'git status':ro", "shell:git status:ro"]);
  });

  it("treats a non-literal shell string as writing", async () => {
    assert.deepEqual(await shells('bash -c "$CMD"'), ['shell:bash -c "$CMD":rw']);
    assert.deepEqual(await shells('bash -c "rm $X"'), ['shell:bash -c "rm $X":rw']);
  });

  it("analyzes eval arguments, joined by spaces", async () => {
    assert.deepEqual(await shells("eval rm -rf x"), ["shell:eval rm -rf x:rw", "shell:rm -rf x:rw"]);
    assert.deepEqual(await shells("eval 'ls;' pwd"), ["shell:eval 'ls;' pwd:ro", "shell:ls:ro", "shell:pwd:ro"]);
    assert.deepEqual(await shells('eval "$(curl x)"'), ['shell:eval "$(curl x)":rw', "shell:curl x:rw"]);
  });

  it("analyzes what sudo, nohup, timeout, nice, time, env, command, exec, stdbuf and setsid run", async () => {
    assert.deepEqual(await shells("sudo -u bob -E ls"), ["shell:sudo -u bob -E ls:rw", "shell:ls:ro"]);
    assert.deepEqual(await shells("nohup rm f"), ["shell:nohup rm f:rw", "shell:rm f:rw"]);
    assert.deepEqual(await shells("timeout -k 1 -s KILL 5s ls"), [
      "shell:timeout -k 1 -s KILL 5s ls:ro",
      "shell:ls:ro",
    ]);
    assert.deepEqual(await shells("nice -5 rm x"), ["shell:nice -5 rm x:rw", "shell:rm x:rw"]);
    assert.deepEqual(await shells("time -p rm x"), ["shell:time -p rm x:rw", "shell:rm x:rw"]);
    assert.deepEqual(await shells("env -i LC_ALL=C sort f"), [
      "shell:env -i LC_ALL=C sort f:ro",
      "shell:LC_ALL=C sort f:ro",
    ]);
    assert.deepEqual(await shells("command -p rm x"), ["shell:command -p rm x:rw", "shell:rm x:rw"]);
    assert.deepEqual(await shells("exec rm x"), ["shell:exec rm x:rw", "shell:rm x:rw"]);
    assert.deepEqual(await shells("stdbuf -oL rm x"), ["shell:stdbuf -oL rm x:rw", "shell:rm x:rw"]);
    assert.deepEqual(await shells("setsid rm x"), ["shell:setsid rm x:rw", "shell:rm x:rw"]);
  });

  it("unwraps chains of wrappers down to a shell string", async () => {
    assert.deepEqual(await shells("sudo env timeout 5 nice bash -c 'rm x'"), [
      "shell:sudo env timeout 5 nice bash -c 'rm x':rw",
      "shell:env timeout 5 nice bash -c 'rm x':rw",
      "shell:timeout 5 nice bash -c 'rm x':rw",
      "shell:nice bash -c 'rm x':rw",
      "shell:bash -c 'rm x':rw",
      "shell:rm x:rw",
    ]);
  });

  it("analyzes the command xargs runs, writing unless the table says read-only", async () => {
    assert.deepEqual(await shells("ls | xargs rm"), ["shell:ls:ro", "shell:xargs rm:rw", "shell:rm:rw"]);
    assert.deepEqual(await shells("ls | xargs -0 -n1 grep x"), [
      "shell:ls:ro",
      "shell:xargs -0 -n1 grep x:ro",
      "shell:grep x:ro",
    ]);
    assert.deepEqual(await shells("ls | xargs -I {} sh -c 'mv {} x'"), [
      "shell:ls:ro",
      "shell:xargs -I {} sh -c 'mv {} x':rw",
      "shell:sh -c 'mv {} x':rw",
      "shell:mv $BOSUN_INPUT x:rw",
    ]);
    assert.deepEqual(await shells("ls | xargs"), ["shell:ls:ro", "shell:xargs:ro"]);
    // Appended input may be an option: `echo -delete | xargs find .` runs `find . -delete`.
    assert.deepEqual(await shells("echo -delete | xargs find ."), [
      "shell:echo -delete:ro",
      "shell:xargs find .:rw",
      "shell:find .:rw",
    ]);
    assert.deepEqual(await shells("ls | xargs --bogus rm"), ["shell:ls:ro", "shell:xargs --bogus rm:rw"]);
  });

  it("analyzes find -exec, -execdir, -ok and -okdir commands, and find -delete", async () => {
    assert.deepEqual(await shells("find . -exec rm {} \\;"), ["shell:find . -exec rm {} \\;:rw", "shell:rm {}:rw"]);
    assert.deepEqual(await shells("find . -execdir rm {} +"), ["shell:find . -execdir rm {} +:rw", "shell:rm {}:rw"]);
    assert.deepEqual(await shells("find . -ok rm {} ';'"), ["shell:find . -ok rm {} ';':rw", "shell:rm {}:rw"]);
    assert.deepEqual(await shells("find . -okdir cat {} \\; -exec wc -l {} +"), [
      "shell:find . -okdir cat {} \\; -exec wc -l {} +:ro",
      "shell:cat {}:ro",
      "shell:wc -l {}:ro",
    ]);
    assert.deepEqual(await shells("find . -type f -delete"), ["shell:find . -type f -delete:rw"]);
    assert.deepEqual(await shells("find . -exec rm {}"), ["shell:find . -exec rm {}:rw"]);
  });

  it("treats a placeholder replaced by input as unknown, and text it is spliced into as writing", async () => {
    // The edit target comes from input: anything, not `{W}/{}`.
    assert.deepEqual(await requests("echo /etc/passwd | xargs -I{} sh -c 'echo x > {}'"), [
      "shell:echo /etc/passwd:ro",
      "shell:xargs -I{} sh -c 'echo x > {}':rw",
      "shell:sh -c 'echo x > {}':rw",
      "shell:echo x:ro",
      "shell:> $BOSUN_INPUT:rw", // input may name /dev/tcp/...
      "web:*",
      "edit:*",
      "external_directory:*",
    ]);
    assert.deepEqual(await requests("ls | xargs -I{} tee {}"), [
      "shell:ls:ro",
      "shell:xargs -I{} tee {}:rw",
      "shell:tee {}:rw",
      "edit:*",
      "external_directory:*",
    ]);
    // A file name spliced into shell text can hold any command: never read-only.
    assert.deepEqual(await shells("find . -exec sh -c 'cat {}' \\;"), [
      "shell:find . -exec sh -c 'cat {}' \\;:rw",
      "shell:sh -c 'cat {}':rw",
      "shell:cat $BOSUN_INPUT:ro",
    ]);
    assert.deepEqual(await shells("find . -exec cat {} +"), ["shell:find . -exec cat {} +:ro", "shell:cat {}:ro"]);
  });

  it("analyzes trap commands and alias values as commands", async () => {
    assert.deepEqual(await shells("trap 'rm -rf /tmp/x' EXIT"), [
      "shell:trap 'rm -rf /tmp/x' EXIT:rw",
      "shell:rm -rf /tmp/x:rw",
    ]);
    assert.deepEqual(await shells("alias ls='rm -rf .'"), ["shell:alias ls='rm -rf .':rw", "shell:rm -rf .:rw"]);
  });

  it(`refuses to analyze more than ${MAX_NESTING} levels of shell strings`, async () => {
    let line = "ls";
    for (let i = 0; i < MAX_NESTING + 2; i++) line = `eval ${JSON.stringify(line)}`;
    assert.match(await notParsed(line), /nested/);
    let ok = "ls";
    for (let i = 0; i < 4; i++) ok = `eval ${JSON.stringify(ok)}`;
    assert.ok((await requests(ok)).includes("shell:ls:ro"));
  });

  it("refuses long wrapper chains too", async () => {
    assert.match(await notParsed(`${"nohup ".repeat(MAX_NESTING + 2)}ls`), /nested/);
  });

  it("fails the whole line when a shell string does not parse", async () => {
    assert.match(await notParsed("ls && bash -c 'echo \"oops'"), /bash/);
  });
});

describe("analyzeShell: non-literal command words", () => {
  it("treats a command word only known when the line runs as unknown (writing)", async () => {
    assert.deepEqual(await shells("$CMD args"), ["shell:$CMD args:rw"]);
    assert.deepEqual(await shells('"$(x)" y'), ['shell:"$(x)" y:rw', "shell:x:rw"]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion
    assert.deepEqual(await shells("${CMD:-ls}"), ["shell:${CMD:-ls}:rw"]);
    assert.deepEqual(await shells("l* -la"), ["shell:l* -la:rw"]);
    assert.deepEqual(await shells("r{m,} x"), ["shell:r{m,} x:rw"]);
    // tree-sitter-bash does not parse a brace expansion in command position: not analyzed.
    await notParsed("{ls,rm} x");
  });

  it("sees through quoting and escapes that still name a known command", async () => {
    assert.deepEqual(await shells("'ls' -la; \\ls; \"l\"s; $'\\x6c\\x73'"), [
      "shell:'ls' -la:ro",
      "shell:\\ls:ro",
      'shell:"l"s:ro',
      "shell:$'\\x6c\\x73':ro",
    ]);
    assert.deepEqual(await shells("$'\\x72\\x6d' -rf x"), ["shell:$'\\x72\\x6d' -rf x:rw"]);
  });

  it("treats arguments the shell may turn into options as unknown for option-sensitive commands", async () => {
    assert.deepEqual(await shells("find . $ACTION"), ["shell:find . $ACTION:rw"]);
    assert.deepEqual(await shells('git log "$X"'), ['shell:git log "$X":rw']);
    assert.deepEqual(await shells('git log -- "$X"'), ['shell:git log -- "$X":ro']);
    assert.deepEqual(await shells('cat "$X"'), ['shell:cat "$X":ro']);
    assert.deepEqual(await shells('find "src/$X" -name a'), ['shell:find "src/$X" -name a:ro']);
    assert.deepEqual(await shells("find src/$X -name a"), ["shell:find src/$X -name a:rw"]);
  });
});

describe("analyzeShell: environment assignments", () => {
  it("keeps a command's classification under harmless assignments only", async () => {
    assert.deepEqual(await shells("LC_ALL=C TZ=UTC sort f"), ["shell:LC_ALL=C TZ=UTC sort f:ro"]);
    assert.deepEqual(await shells("foo=1 ls"), ["shell:foo=1 ls:ro"]);
    for (const name of ["PATH", "LD_PRELOAD", "GIT_DIR", "BASH_ENV", "HOME", "PAGER", "NODE_OPTIONS", "IFS"]) {
      assert.deepEqual(await shells(`${name}=/tmp/x ls`), [`shell:${name}=/tmp/x ls:rw`], name);
    }
    assert.deepEqual(await shells("GIT_PAGER=cat git log"), ["shell:GIT_PAGER=cat git log:ro"]);
  });

  it("classifies bare assignments by the variable they set", async () => {
    assert.deepEqual(await shells("x=1; PATH=/tmp:$PATH; ls"), [
      "shell:x=1:ro",
      "shell:PATH=/tmp:$PATH:rw",
      "shell:ls:ro",
    ]);
    assert.deepEqual(await shells("export LD_PRELOAD=/tmp/x.so"), ["shell:export LD_PRELOAD=/tmp/x.so:rw"]);
    assert.deepEqual(await shells("local a=1 b"), ["shell:local a=1 b:ro"]);
  });
});

describe("analyzeShell: redirections", () => {
  it("adds an edit request for each file a redirection writes", async () => {
    for (const op of [">", ">>", "&>", "&>>", ">|", "2>", "2>>", "1>", ">&"]) {
      assert.deepEqual(await requests(`ls ${op} out`), ["shell:ls:ro", `edit:${W}/out`], op);
    }
    assert.deepEqual(await requests("> f"), [`edit:${W}/f`]);
    assert.deepEqual(await requests("exec 3>f 4>>g"), ["shell:exec:ro", `edit:${W}/f`, `edit:${W}/g`]);
  });

  it("adds nothing for devices and descriptor duplication", async () => {
    assert.deepEqual(await requests("ls >/dev/null 2>&1 3>&- 1>&2 2>/dev/stderr >/dev/stdout <&0 </dev/null"), [
      "shell:ls:ro",
    ]);
  });

  it("reads the target of an input redirection; outside the workspace, external_directory too", async () => {
    assert.deepEqual(await requests("wc -l < in.txt"), ["shell:wc -l:ro", `read:${W}/in.txt`]);
    assert.deepEqual(await requests("wc -l < /etc/hosts"), [
      "shell:wc -l:ro",
      "external_directory:/etc/hosts",
      "read:/etc/hosts",
    ]);
  });

  it("names the prefix an always covers, and the literal arguments that may be files", async () => {
    const [git, cat] = (await analyzeShell("git status -s && cat ./.env sub/../a -n --file=b", ctx)).requests;
    assert.equal(git?.prefix, "git status");
    assert.equal(cat?.prefix, "cat");
    // `..` is kept: the kernel applies it after following links (the caller resolves both spellings).
    assert.deepEqual(cat?.operands, [`${W}/.env`, `${W}/sub/../a`, `${W}/b`]);
    const [unknown] = (await analyzeShell('"$TOOL" status', ctx)).requests;
    assert.equal(unknown?.prefix, undefined);
    const [assigned] = (await analyzeShell("PAGER=x git log", ctx)).requests;
    assert.equal(assigned?.prefix, undefined);
  });

  it("writes through here-documents and here-strings with an output redirection", async () => {
    assert.deepEqual(await requests("cat <<EOF > f\nx\nEOF"), ["shell:cat:ro", `edit:${W}/f`]);
    assert.deepEqual(await requests("cat > f <<-EOF\n\tx\n\tEOF"), ["shell:cat:ro", `edit:${W}/f`]);
    assert.deepEqual(await requests("cat <<< hi >> f"), ["shell:cat:ro", `edit:${W}/f`]);
    assert.deepEqual(await requests("cat <<EOF | sh\nrm x\nEOF"), ["shell:cat:ro", "shell:sh:rw"]);
    assert.deepEqual(await requests("cat <<EOF && rm y\nx\nEOF"), ["shell:cat:ro", "shell:rm y:rw"]);
  });

  it("uses * for a target only known when the line runs", async () => {
    // Any file, outside the workspace too: `$F` may be `../x`, or a socket (`/dev/tcp/h/p`).
    const unknown = ["edit:*", "external_directory:*"];
    assert.deepEqual(await requests('echo x > "$F"'), ["shell:echo x:ro", 'shell:> "$F":rw', "web:*", ...unknown]);
    assert.deepEqual(await requests("echo x > $(mktemp)"), [
      "shell:echo x:ro",
      "shell:mktemp:rw",
      "shell:> $(mktemp):rw",
      "web:*",
      ...unknown,
    ]);
    assert.deepEqual(await requests("echo x > *.txt"), ["shell:echo x:ro", ...unknown]);
    assert.deepEqual(await requests("echo x > /etc/$F"), ["shell:echo x:ro", ...unknown]);
  });

  it("hangs a redirection on the last command of a list or pipeline, as bash does", async () => {
    assert.deepEqual(await requests("cd sub && echo x > f"), ["shell:cd sub:ro", "shell:echo x:ro", `edit:${W}/sub/f`]);
    assert.deepEqual(await requests("a | b > f"), ["shell:a:rw", "shell:b:rw", `edit:${W}/f`]);
    assert.deepEqual(await requests("echo a > f b"), ["shell:echo a b:ro", `edit:${W}/f`]);
  });

  it("redirects a whole group or loop", async () => {
    assert.deepEqual(await requests("{ ls; } > a; for i in 1; do ls; done >> b; (ls) 2> c"), [
      "shell:ls:ro",
      `edit:${W}/a`,
      `edit:${W}/b`,
      `edit:${W}/c`,
    ]);
  });

  it("adds an edit request for each file tee writes", async () => {
    assert.deepEqual(await requests("ls | tee -a a /tmp/b - /dev/null"), [
      "shell:ls:ro",
      "shell:tee -a a /tmp/b - /dev/null:rw",
      `edit:${W}/a`,
      "edit:/tmp/b",
      "external_directory:/tmp/b",
      `edit:${W}/-`,
    ]);
    assert.deepEqual(await requests('ls | tee "$F"'), [
      "shell:ls:ro",
      'shell:tee "$F":rw',
      "edit:*",
      "external_directory:*",
    ]);
    assert.deepEqual(await requests("ls | tee"), ["shell:ls:ro", "shell:tee:ro"]);
  });

  it("resolves targets against the cwd at that point", async () => {
    assert.deepEqual(await requests("echo x > f", { cwd: `${W}/sub`, workspace: W }), [
      "shell:echo x:ro",
      `edit:${W}/sub/f`,
    ]);
    assert.deepEqual(await requests("cd a && cd ../b && echo > ./c/../f"), [
      "shell:cd a:ro",
      "shell:cd ../b:ro",
      "shell:echo:ro",
      // `./c/..` kept for the caller, which resolves it through links (c may be one)
      `edit:${W}/b/c/../f`,
    ]);
    assert.deepEqual(await requests("echo > ~/f"), [
      "shell:echo:ro",
      `edit:${homedir()}/f`,
      `external_directory:${homedir()}/f`,
    ]);
  });
});

describe("analyzeShell: working directory and paths outside the workspace", () => {
  it("follows cd and pushd for later commands in the same list", async () => {
    assert.deepEqual(await requests("cd /tmp && rm x > y"), [
      "shell:cd /tmp:ro",
      "external_directory:/tmp",
      "shell:rm x:rw",
      "edit:/tmp/y",
      "external_directory:/tmp/y",
    ]);
    assert.deepEqual(await requests("pushd src && echo > f"), [
      "shell:pushd src:ro",
      "shell:echo:ro",
      `edit:${W}/src/f`,
    ]);
  });

  it("keeps both directories when a cd may have failed (; or ||)", async () => {
    assert.deepEqual(await requests("cd a; echo > f"), [
      "shell:cd a:ro",
      "shell:echo:ro",
      `edit:${W}/a/f`,
      `edit:${W}/f`,
    ]);
    assert.deepEqual(await requests("cd a || echo > f"), ["shell:cd a:ro", "shell:echo:ro", `edit:${W}/f`]);
    assert.deepEqual(await requests("if cd a; then echo > f; fi"), ["shell:cd a:ro", "shell:echo:ro", `edit:${W}/a/f`]);
  });

  it("does not let a cd escape a subshell, a pipeline or a background job", async () => {
    for (const line of ["(cd a); echo > f", "cd a | cat; echo > f", "cd a & echo > f", "echo $(cd a); echo > f"]) {
      assert.ok((await requests(line)).includes(`edit:${W}/f`), line);
      assert.ok(!(await requests(line)).includes(`edit:${W}/a/f`), line);
    }
  });

  it("loses track of the directory after an unknown cd, popd, or a cd in a loop", async () => {
    assert.deepEqual(await requests('cd "$D" && echo > f'), [
      'shell:cd "$D":ro',
      "external_directory:*",
      "shell:echo:ro",
      "edit:*",
    ]);
    assert.deepEqual(await requests("cd - && echo > f"), [
      "shell:cd -:ro",
      "external_directory:*",
      "shell:echo:ro",
      "edit:*",
    ]);
    assert.deepEqual(await requests("popd && echo > f"), [
      "shell:popd:ro",
      "shell:echo:ro",
      "edit:*",
      "external_directory:*",
    ]);
    assert.ok((await requests("for d in a b; do cd $d; done; echo > f")).includes("edit:*"));
  });

  it("adds external_directory for a cd target outside the workspace", async () => {
    assert.deepEqual(await requests("cd"), ["shell:cd:ro", `external_directory:${homedir()}`]);
    assert.deepEqual(await requests("cd ../.."), ["shell:cd ../..:ro", "external_directory:/"]);
    assert.deepEqual(await requests("cd /tmp && cd x"), [
      "shell:cd /tmp:ro",
      "external_directory:/tmp",
      "shell:cd x:ro",
      "external_directory:/tmp/x",
    ]);
    assert.deepEqual(await requests("cd src/.."), ["shell:cd src/..:ro"]);
    assert.deepEqual(await requests(`cd ${W}/src`), [`shell:cd ${W}/src:ro`]);
  });

  it("adds external_directory for absolute, ~ and ../ path arguments that leave the workspace", async () => {
    assert.deepEqual(await requests("cat /etc/passwd ../x ~/y src/z ./w"), [
      "shell:cat /etc/passwd ../x ~/y src/z ./w:ro",
      "external_directory:/etc/passwd",
      "external_directory:/work/x",
      `external_directory:${homedir()}/y`,
    ]);
    assert.deepEqual(await requests("cat $HOME/.netrc"), [
      "shell:cat $HOME/.netrc:ro",
      `external_directory:${homedir()}/.netrc`,
    ]);
    assert.deepEqual(await requests("grep --file=/etc/x y"), [
      "shell:grep --file=/etc/x y:ro",
      "external_directory:/etc/x",
    ]);
    // Known only when it runs, wherever it starts: `$F` may be `../../home/x`.
    assert.deepEqual(await requests("cat /etc/$F"), ["shell:cat /etc/$F:ro", "read:*", "external_directory:*"]);
    assert.deepEqual(await requests("cat $v {$v,x} ~+/x"), [
      "shell:cat $v {$v,x} ~+/x:ro",
      "read:*",
      "external_directory:*",
    ]);
    assert.deepEqual(await requests("echo $v; printf %s $v"), ["shell:echo $v:ro", "shell:printf %s $v:ro"]);
    // Paths glued to options, inside script arguments, as file:// URLs, in brace lists
    assert.deepEqual(await requests("date -f/etc/a; sed '1r /etc/b' x; curl file:///etc/c; cat {/etc/d,y}"), [
      "shell:date -f/etc/a:ro",
      "external_directory:/etc/a",
      "shell:sed '1r /etc/b' x:ro",
      "external_directory:/etc/b",
      "shell:curl file:///etc/c:rw",
      "external_directory:/etc/c",
      "shell:cat {/etc/d,y}:ro",
      "read:/etc/d", // brace and glob words: patterns the caller expands (call-requests.ts)
      `read:${W}/y`,
      "external_directory:/etc/d",
    ]);
    assert.deepEqual(await requests("ls ../*.ts src/*.ts"), [
      "shell:ls ../*.ts src/*.ts:ro",
      `read:${W}/../*.ts`,
      `read:${W}/src/*.ts`,
      "external_directory:/work",
    ]);
    assert.deepEqual(await requests(`cat ${W}/a ${W}/../proj/b`), [`shell:cat ${W}/a ${W}/../proj/b:ro`]);
  });

  it("does not take URLs, devices or system programs for outside paths", async () => {
    assert.deepEqual(await requests("cat https://example.com/a/b"), ["shell:cat https://example.com/a/b:ro"]);
    assert.deepEqual(await requests("diff a /dev/null; /usr/bin/ls"), [
      "shell:diff a /dev/null:ro",
      "shell:/usr/bin/ls:ro",
    ]);
    assert.deepEqual(await requests("/opt/tool/bin/x"), [
      "shell:/opt/tool/bin/x:rw",
      "external_directory:/opt/tool/bin/x",
    ]);
  });

  it("runs env -C commands in that directory", async () => {
    assert.deepEqual(await requests("env -C /tmp sh -c 'echo > f'"), [
      "shell:env -C /tmp sh -c 'echo > f':rw",
      "shell:sh -c 'echo > f':rw",
      "shell:echo:ro",
      "edit:/tmp/f",
      "external_directory:/tmp/f",
      "external_directory:/tmp",
    ]);
  });

  it("accepts a workspace with a trailing slash and a cwd inside it", async () => {
    assert.deepEqual(await requests("cat ../a", { cwd: `${W}/src/`, workspace: `${W}/` }), ["shell:cat ../a:ro"]);
  });
});

describe("analyzeShell: lines it will not analyze", () => {
  it("refuses syntax errors and missing tokens", async () => {
    assert.match(await notParsed('echo "abc'), /syntax error/);
    assert.match(await notParsed(")"), /syntax error/);
    assert.match(await notParsed("ls &&"), /syntax error/);
    assert.match(await notParsed("echo $(ls"), /missing|syntax error/);
    assert.match(await notParsed("if true; then ls"), /syntax error/);
  });

  it("refuses tests whose quoted text hides a command in an array subscript", async () => {
    assert.match(await notParsed("[[ 1 -eq 'a[$(rm x)]' ]]"), /array subscript/);
    assert.match(await notParsed('[ 1 -eq "a[`rm x`]" ]'), /array subscript/);
    assert.deepEqual(await shells("[[ $x == 'a[1]' ]] && ls"), ["shell:ls:ro"]);
  });

  it("refuses shell syntax tree-sitter misreads as a command (time or coproc with a group, a stray fi)", async () => {
    assert.match(await notParsed("time { rm x; }"), /unsupported shell syntax/);
    assert.match(await notParsed("coproc { rm x; }"), /unsupported shell syntax/);
    assert.match(await notParsed("coproc NAME { rm x; }"), /unsupported shell syntax/);
    assert.match(await notParsed("ls\nfi"), /unsupported shell syntax/);
    assert.deepEqual(await shells("time ls | wc -l"), ["shell:time ls:ro", "shell:ls:ro", "shell:wc -l:ro"]);
    assert.deepEqual(await shells('"{" x'), ['shell:"{" x:rw']);
  });

  it("refuses empty lines and comment-only lines", async () => {
    assert.equal(await notParsed(""), "empty command");
    assert.equal(await notParsed(" \n\t"), "empty command");
    assert.equal(await notParsed("# nothing"), "empty command");
  });

  it("refuses lines nested too deeply", async () => {
    assert.match(await notParsed(`${"echo $(".repeat(150)}x${")".repeat(150)}`), /nested/);
    assert.match(await notParsed(`${"(".repeat(300)}ls${")".repeat(300)}`), /nested/);
  });

  it("refuses a line that is too long", async () => {
    assert.match(await notParsed(`echo ${"x".repeat(1_000_001)}`), /longer/);
  });

  it("analyzes many lines at once with one parser", async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `echo ${i} > f${i}`);
    const results = await Promise.all(lines.map((l) => analyzeShell(l, ctx)));
    results.forEach((r, i) => {
      assert.deepEqual(r.requests.map(show), [`shell:echo ${i}:ro`, `edit:${W}/f${i}`]);
    });
  });
});

describe("analyzeShell and classifyCommand agree", () => {
  it("gives a simple command the table's classification", async () => {
    for (const line of ["ls -la", "rm -rf x", "git status", "git push", "sed -n 1p f", "sed -i 1d f", "frobnicate"]) {
      const argv = line.split(" ");
      assert.deepEqual(await shells(line), [`shell:${line}:${classifyCommand(argv).readOnly ? "ro" : "rw"}`], line);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// parse.ts: the statement tree analyze.ts interprets

let parser: Parser | undefined;
async function parse(text: string): Promise<Stmt> {
  parser ??= await loadParser();
  return parseShell(parser, text);
}

/** The words of the only simple command in `text`. */
async function parsedWords(text: string): Promise<Word[]> {
  const stmt = await parse(text);
  assert.equal(stmt.kind, "simple", JSON.stringify(stmt));
  return (stmt as Extract<Stmt, { kind: "simple" }>).words;
}

async function parsedValues(text: string): Promise<(string | null)[]> {
  return (await parsedWords(text)).map((w) => w.value);
}

describe("parse.ts: loadParser", () => {
  it("loads tree-sitter-bash once and reuses it", async () => {
    const [a, b] = await Promise.all([loadParser(), loadParser()]);
    assert.equal(a, b);
    assert.equal(await loadParser(), a);
  });

  it("is not loaded by importing the analysis: other commands do not pay for it", () => {
    // A child process records every module resolution; importing analyze.ts must not resolve
    // web-tree-sitter or the grammar. (Loading on first use is what every other test exercises.)
    const analyze = fileURLToPath(new URL("./analyze.ts", import.meta.url));
    const hook = encodeURIComponent(
      `export async function resolve(s, c, next) {
        if (s.includes("tree-sitter")) process.stdout.write("resolve " + s + "\\n");
        return next(s, c);
      }`,
    );
    const script = `
      import { register } from "node:module";
      register("data:text/javascript,${hook}");
      const mod = await import(${JSON.stringify(analyze)});
      process.stdout.write("imported " + typeof mod.analyzeShell + "\\n");
    `;
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    assert.equal(out, "imported function\n");
  });
});

describe("parse.ts: words", () => {
  it("removes quotes and escapes", async () => {
    assert.deepEqual(await parsedValues(`echo 'a b' "c d" e\\ f "g\\"h" 'i'j"k" \\$x`), [
      "echo",
      "a b",
      "c d",
      "e f",
      'g"h',
      "ijk",
      "$x",
    ]);
  });

  it("keeps a lone $ and an escaped ~ as they are", async () => {
    assert.deepEqual(await parsedValues(`echo "5$" "$" \\~/x`), ["echo", "5$", "$", "~/x"]);
  });

  it("decodes $'...' strings", async () => {
    assert.deepEqual(await parsedValues("printf $'a\\tb\\x41\\101\\u00e9\\n'"), ["printf", "a\tbAAé\n"]);
    assert.equal(decodeAnsiC("\\x72\\x6d"), "rm");
    assert.equal(decodeAnsiC("\\'\\\\"), "'\\");
    assert.equal(decodeAnsiC("\\cA"), null);
  });

  it("expands ~ and $HOME, nothing else", async () => {
    const home = homedir();
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion
    assert.deepEqual(await parsedValues('cat ~ ~/a $HOME/b "${HOME}"/c ~user/d "~/e"'), [
      "cat",
      home,
      `${home}/a`,
      `${home}/b`,
      `${home}/c`,
      null, // ~user: known only when it runs
      "~/e",
    ]);
  });

  it("marks expansions, substitutions and globs as unknown, with their known prefix", async () => {
    const ws = await parsedWords('echo $X "$Y" src/$Z "a/$(b)" *.ts "*.ts" a{b,c} {} \\*');
    assert.deepEqual(
      ws.map((w) => [w.value, w.prefix, w.splits, w.expands]),
      [
        ["echo", "echo", false, false],
        [null, "", true, false],
        [null, "", false, false],
        [null, "src/", true, false],
        [null, "a/", false, false],
        [null, "", false, true],
        ["*.ts", "*.ts", false, false],
        [null, "a", false, true],
        ["{}", "{}", false, false],
        ["*", "*", false, false],
      ],
    );
    assert.equal(ws[4]?.subs.length, 1);
  });

  it("keeps the text as written", async () => {
    assert.deepEqual(
      (await parsedWords(`git log --format='%h %s' -- "a b"`)).map((w) => w.text),
      ["git", "log", "--format='%h %s'", "--", '"a b"'],
    );
  });
});

describe("parse.ts: statements", () => {
  it("builds lists, pipelines, subshells and background jobs", async () => {
    const stmt = await parse("a && b | c; (d) & e");
    assert.equal(stmt.kind, "seq");
    const items = (stmt as Extract<Stmt, { kind: "seq" }>).items;
    assert.deepEqual(
      items.map((i) => i.kind),
      ["and", "subshell", "simple"],
    );
    const and = items[0] as Extract<Stmt, { left: Stmt }>;
    assert.equal(and.right.kind, "pipeline");
  });

  it("hangs a trailing redirection on the last command, not the whole list", async () => {
    const stmt = (await parse("a && b > f")) as Extract<Stmt, { left: Stmt }>;
    assert.equal(stmt.kind, "and");
    assert.deepEqual((stmt.left as Extract<Stmt, { kind: "simple" }>).redirects, []);
    const right = stmt.right as Extract<Stmt, { kind: "simple" }>;
    assert.deepEqual(
      right.redirects.map((r) => [r.op, r.target?.value]),
      [[">", "f"]],
    );
  });

  it("keeps the rest of a here-document's line: redirections, pipes and lists", async () => {
    const written = (await parse("cat <<EOF > f\nx\nEOF")) as Extract<Stmt, { kind: "simple" }>;
    assert.deepEqual(
      written.redirects.map((r) => [r.op, r.target?.value ?? null]),
      [
        ["<<", null],
        [">", "f"],
      ],
    );
    const piped = (await parse("cat <<EOF | sh\nx\nEOF")) as Extract<Stmt, { kind: "pipeline" }>;
    assert.equal(piped.kind, "pipeline");
    assert.equal(piped.items.length, 2);
    const listed = await parse("cat <<EOF || rm x\nx\nEOF");
    assert.equal(listed.kind, "or");
  });

  it("reports where a syntax error is", async () => {
    await assert.rejects(
      parse("echo 'x"),
      (e: unknown) => e instanceof ShellParseError && /syntax error .* line 1, column \d+/.test(e.message),
    );
    await assert.rejects(
      parse("ls\necho 'x"),
      (e: unknown) => e instanceof ShellParseError && /line 2/.test(e.message),
    );
    await assert.rejects(parse("ls |"), ShellParseError);
  });

  it("refuses empty text and nesting deeper than the limit", async () => {
    await assert.rejects(parse(""), /empty command/);
    await assert.rejects(parse("# only a comment\n"), /empty command/);
    const deep = `${"( ".repeat(MAX_NODE_DEPTH + 1)}ls${" )".repeat(MAX_NODE_DEPTH + 1)}`;
    await assert.rejects(parse(deep), /nested more than/);
    assert.equal((await parse(`${"( ".repeat(20)}ls${" )".repeat(20)}`)).kind, "subshell");
  });
});
