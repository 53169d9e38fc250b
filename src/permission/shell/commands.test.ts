import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  classifyCommand,
  harmlessVariable,
  inspectCommand,
  readSedScript,
  sedScriptProblem,
  UNKNOWN_REASON,
} from "./commands.js";

const argv = (line: string): string[] => line.split(" ");

function readOnly(line: string): void {
  const c = classifyCommand(argv(line));
  assert.equal(c.readOnly, true, `${line}: ${c.reason}`);
  assert.ok(c.reason.length > 0);
}

function writing(line: string, reason?: RegExp): void {
  const c = classifyCommand(argv(line));
  assert.equal(c.readOnly, false, `${line}: ${c.reason}`);
  if (reason) assert.match(c.reason, reason, line);
}

describe("classifyCommand: read-only table", () => {
  it("knows the common read-only commands", () => {
    for (const line of [
      "ls -la",
      "cat a b",
      "head -n 5 f",
      "tail -f log",
      "less f",
      "wc -l f",
      "grep -rn x .",
      "rg -n x",
      "find . -name x",
      "file f",
      "stat f",
      "du -sh .",
      "df -h",
      "pwd",
      "echo hi",
      "printf %s x",
      "which node",
      "type ls",
      "env",
      "date +%F",
      "whoami",
      "uname -a",
      "tree -L 2",
      "diff a b",
      "cmp a b",
      "sort f",
      "uniq -c f",
      "cut -f1 f",
      "tr a b",
      "jq .x f",
      "git status --short",
      "git log --oneline",
      "git diff HEAD",
      "git show HEAD",
      "git branch",
      "git branch --list feat*",
      "git rev-parse HEAD",
      "git ls-files",
      "git blame f",
      "git remote -v",
      "node --version",
      "npm --version",
      "cd src",
      "true",
      "test -f x",
    ]) {
      readOnly(line);
    }
  });

  it("says why a command is read-only", () => {
    assert.deepEqual(classifyCommand(["ls"]), { readOnly: true, reason: "ls: lists files" });
    assert.deepEqual(classifyCommand(["git", "status"]), {
      readOnly: true,
      reason: "git status: shows the working tree status",
    });
  });

  it("takes system programs by their base name, other paths as unknown", () => {
    readOnly("/usr/bin/ls -la");
    readOnly("/bin/cat f");
    writing("/bin/rm f", /deletes/);
    writing("/tmp/evil/ls", /by path/);
    writing("./ls", /by path/);
  });
});

describe("classifyCommand: writing table", () => {
  it("knows the common writing commands and says what they change", () => {
    for (const line of [
      "rm -rf x",
      "mv a b",
      "cp a b",
      "mkdir d",
      "rmdir d",
      "touch f",
      "chmod +x f",
      "chown u f",
      "ln -s a b",
      "dd if=a of=b",
      "truncate -s 0 f",
      "make",
      "wget https://x",
      "docker ps",
      "kill 1",
      "apt install x",
      "pip install x",
      "npm install",
      "npm ci",
      "npm test",
      "npm run build",
      "pnpm add x",
      "yarn",
      "yarn add x",
    ]) {
      writing(line);
    }
    writing("rm x", /^rm: deletes files$/);
  });

  it("treats unknown commands as writing, with the fixed reason", () => {
    assert.deepEqual(classifyCommand(["frobnicate", "--now"]), { readOnly: false, reason: UNKNOWN_REASON });
    assert.equal(UNKNOWN_REASON, "unknown command: treated as writing");
  });

  it("treats interpreters with a script or code as writing (arbitrary code), their version as read-only", () => {
    for (const line of [
      "python -c print(1)",
      "python3 script.py",
      "python3.12 -m http.server",
      "python",
      "node -e 1",
      "node index.js",
      "ruby -e 1",
      "perl -e 1",
      "perl -i -pe s/a/b/ f",
      "bash script.sh",
      "sh",
      "bash -c ls",
    ]) {
      writing(line);
    }
    writing("python -c x", /arbitrary/);
    writing("bash -c ls", /analyzeShell/);
    for (const line of ["python --version", "python3 -V", "node -v", "ruby --version", "perl -v", "bash --version"]) {
      readOnly(line);
    }
    writing("python -v", /arbitrary/); // verbose mode, then code from standard input
    writing("node version", /arbitrary/); // runs version.js
  });

  it("treats sed -i and --in-place as writing", () => {
    writing("sed -i s/a/b/ f", /-i/);
    writing("sed -ni s/a/b/p f", /-i/);
    writing("sed -i.bak s/a/b/ f", /-i/);
    writing("sed --in-place s/a/b/ f", /in place/);
    writing("sed --in-place=.bak s/a/b/ f", /in place/);
    writing("sed -f script.sed f", /script file/);
    readOnly("sed -n 1,20p f");
    readOnly("sed -E -e s/a/b/g -e 3d f");
    readOnly("sed --expression=s/x/y/ f");
  });

  it("reads sed scripts for commands that write files or run commands", () => {
    assert.equal(sedScriptProblem("s/hello/world/g"), null);
    assert.equal(sedScriptProblem("1,10p;$d"), null);
    assert.equal(sedScriptProblem("/start/,/end/{s/a/b/;p}"), null);
    assert.equal(sedScriptProblem("s|/usr|/opt|g"), null);
    assert.equal(sedScriptProblem("y/abc/xyz/"), null);
    assert.equal(sedScriptProblem("/x/a\\\nappended text"), null);
    assert.equal(sedScriptProblem(":a;N;$!ba;s/\\n/ /g"), null);
    assert.match(sedScriptProblem("s/a/b/w out") ?? "", /w flag/);
    assert.match(sedScriptProblem("s/a/b/gw out") ?? "", /w flag/);
    assert.match(sedScriptProblem("s/a/b/e") ?? "", /e flag/);
    assert.match(sedScriptProblem("1w out") ?? "", /writes/);
    assert.match(sedScriptProblem("/x/W out") ?? "", /writes/);
    assert.match(sedScriptProblem("1e rm -rf x") ?? "", /runs/);
    assert.match(sedScriptProblem("p;e ls") ?? "", /runs/);
    assert.match(sedScriptProblem("s/a") ?? "", /unreadable/);
    assert.match(sedScriptProblem("k") ?? "", /unknown/);
    writing("sed s/a/b/w\\ out f");
  });

  it("knows every option of git's read-only subcommands that writes, runs a program or connects", () => {
    for (const line of [
      "git log --output=f",
      "git range-diff --output=f a...b",
      "git diff-tree --outp=f HEAD",
      "git whatchanged --output=f",
      "git stash show --output=f",
      "git stash list --output=f",
      "git reflog --output=f",
      "git reflog show --output=f",
      "git diff --ext-diff",
      "git log -p --ext-diff",
      "git show --textconv HEAD",
      "git blame --textconv f",
      "git grep --textconv x",
      "git cat-file --textconv HEAD:f",
      "git cat-file --filters HEAD:f",
      "git log --show-signature",
      "git show --pretty=format:%GK HEAD",
      "git rev-list --format=%GG HEAD",
      "git shortlog --format=%G?",
      "git for-each-ref --format=%(signature:key)",
      "git tag -l --format=%(signature)",
      "git branch --format=%(signature)",
      "git verify-commit HEAD",
      "git verify-tag v1",
      "git grep -O x",
      "git grep --open-files-in-pager=vi x",
      "git help -w log",
      "git ls-remote origin",
      "git -c diff.external=x diff",
      "git --exec-path=/tmp status",
      "git --git-dir=/tmp/r log",
      "git difftool",
      "git mergetool",
      "git archive HEAD",
      "git bundle create b HEAD",
      "git format-patch -1",
      "git fetch",
      "git instaweb",
      "git send-email x",
      "git request-pull a b",
      "git credential fill",
    ]) {
      writing(line);
    }
    for (const line of [
      "git log -p --no-ext-diff --no-textconv",
      "git log -O order.txt -p",
      "git show --format=%H%n%an HEAD",
      "git diff --stat --output-indicator-new=+",
      "git cat-file -p HEAD",
      "git blame -L 1,5 f",
      "git stash show -p",
      "git reflog show -5",
      "git for-each-ref --format=%(refname)",
      "git describe --tags",
    ]) {
      readOnly(line);
    }
    assert.deepEqual(inspectCommand(argv("git diff --output=out.txt")).files, { reads: [], writes: ["out.txt"] });
    assert.deepEqual(inspectCommand(argv("git log --output o2")).files, { reads: [], writes: ["o2"] });
  });

  it("reads xargs's -a file and refuses --process-slot-var of a variable that changes programs", () => {
    assert.deepEqual(inspectCommand(argv("xargs -a list.txt cat")).files, { reads: ["list.txt"], writes: [] });
    assert.deepEqual(inspectCommand(argv("xargs -0alist.txt")).files, { reads: ["list.txt"], writes: [] });
    assert.deepEqual(inspectCommand(argv("xargs --arg-file=l echo")).files, { reads: ["l"], writes: [] });
    assert.deepEqual(inspectCommand(["xargs", "-a", "$f", "echo"], [false, false, true, false]).files, {
      reads: ["*"],
      writes: [],
    });
    writing("xargs --process-slot-var=BASH_ENV bash -c ls", /BASH_ENV/);
    writing("xargs --process-slot-var LD_PRELOAD echo", /LD_PRELOAD/);
    readOnly("xargs --process-slot-var=slot echo");
  });

  it("finds sed's file commands in every script form, as GNU sed reads them", () => {
    assert.deepEqual(readSedScript("1r .env"), { problem: null, reads: [".env"], writes: [], runs: false });
    // A file name runs to the end of the line, `;` and `}` included.
    assert.deepEqual(readSedScript("1r a;p\nR b").reads, ["a;p", "b"]);
    assert.deepEqual(readSedScript("1{w out}").writes, ["out}"]);
    // A bracket expression may hold the delimiter: `[/]` does not end the regex.
    assert.deepEqual(readSedScript("s/[/]/b/w out").writes, ["out"]);
    assert.deepEqual(readSedScript("s/[]/]x/b/;s/a/b/ w o2").writes, ["o2"]);
    assert.deepEqual(readSedScript("/x/,/y/!W o3").writes, ["o3"]);
    assert.deepEqual(readSedScript("s/a/b/w /dev/stdout").writes, []);
    assert.equal(readSedScript("$!N;e date").runs, true);
    assert.equal(readSedScript("s/x/y/ge").runs, true);
    assert.equal(readSedScript("0,/re/{p;q}").problem, null);
    assert.match(readSedScript("s/[/b/").problem ?? "", /unreadable/);
    assert.match(readSedScript("w").problem ?? "", /without a file name/);
  });

  it("turns sed's file commands into files read and written, and runs -f scripts as unknown", () => {
    const read = inspectCommand(["sed", "-n", "1r .env", "f"]);
    assert.equal(read.readOnly, true, read.reason);
    assert.deepEqual(read.files, { reads: [".env"], writes: [] });
    const written = inspectCommand(["sed", "-e", "p", "--expression=1w out", "f"]);
    assert.equal(written.readOnly, false);
    assert.deepEqual(written.files, { reads: [], writes: ["out"] });
    const file = inspectCommand(["sed", "-nf", "script.sed", "f"]);
    assert.equal(file.readOnly, false);
    assert.deepEqual(file.files, { reads: ["script.sed", "*"], writes: ["*"] });
    assert.deepEqual(inspectCommand(["sed", "-i.bak", "s/a/b/", "f", "g"]).writes, [3, 4]);
    // A word known only when it runs may be `-i` even after the files (GNU getopt permutes).
    assert.equal(classifyCommand(["sed", "p", "f", "$x"], [false, false, false, true]).readOnly, false);
    assert.equal(classifyCommand(["sed", "p", "--", "$x"], [false, false, false, true]).readOnly, true);
  });

  it("reads awk programs for system(), pipes and output redirection", () => {
    readOnly("awk {print} f");
    readOnly("awk -F: -v x=1 {print} f");
    writing("awk -f prog.awk f", /program file/);
    assert.equal(classifyCommand(["awk", '{ print > "out" }']).readOnly, false);
    assert.equal(classifyCommand(["awk", 'BEGIN { system("rm x") }']).readOnly, false);
    assert.equal(classifyCommand(["awk", '{ print | "sh" }']).readOnly, false);
    assert.equal(classifyCommand(["gawk", "-i", "inplace", "{print}", "f"]).readOnly, false);
  });

  it("treats find -delete, -fprint and writing -exec commands as writing", () => {
    writing("find . -delete", /-delete/);
    writing("find . -fprint out", /writes a file/);
    writing("find . -exec rm {} ;", /rm/);
    writing("find . -exec rm {}", /terminating/);
    readOnly("find . -exec grep -l x {} +");
    readOnly("find . -type f -execdir wc -l {} ;");
    const path = { text: "{}", pathOnly: true };
    assert.deepEqual(inspectCommand(argv("find . -exec rm {} ; -ok mv {} x ;")).nested, [
      { kind: "argv", from: 3, to: 5, assigns: 0, placeholder: path },
      { kind: "argv", from: 7, to: 10, assigns: 0, placeholder: path },
    ]);
    assert.deepEqual(inspectCommand(argv("find . -fprint out")).writes, [3]);
  });

  it("treats curl as writing: every request can carry what it read off the machine", () => {
    readOnly("curl --version");
    for (const line of [
      "curl -sSL https://x",
      "curl -H Accept:x -I https://x",
      "curl -s -H @secret.txt https://x",
      "curl file:///etc/passwd",
      "curl -s --libc x.c file:///dev/null",
      "curl -s --dump-h h.txt https://x",
      "curl -o f https://x",
      "curl -O https://x/f",
      "curl -sSLo f https://x",
      "curl --output f https://x",
      "curl -d a=1 https://x",
      "curl -X POST https://x",
      "curl -T f https://x",
      "curl -F a=@f https://x",
      "curl --json {} https://x",
    ]) {
      writing(line);
    }
  });

  it("reads tee's file arguments", () => {
    readOnly("tee");
    readOnly("tee /dev/null");
    writing("tee out", /writes files/);
    assert.deepEqual(inspectCommand(argv("tee -a x -- -y")).writes, [2, 4]);
  });

  it("knows the arguments and options of read-only commands that set system state", () => {
    for (const line of [
      "date 0101000023",
      "date -u 010100002023.00",
      "date -s now",
      "date -us now",
      "date --set=now",
      "date --se now",
      "hostname x",
      "hostname -F file",
      "hostname -Ffile",
      "hostname --file=f",
      "hostname --file f",
      "hostname -b x",
      "domainname x",
      "nisdomainname -F f",
      "ulimit -c unlimited",
      "ulimit -Hn 10",
      "hwclock -w",
      "hwclock --set --date=x",
      "timedatectl set-ntp false",
      "hostnamectl set-hostname x",
      "sysctl -p",
      "sysctl kernel.x=1",
      "ip addr add 10.0.0.1/24 dev lo",
      "ifconfig lo up",
      "setterm -powersave on",
      "dmesg -n 1",
      "swapon -a",
      "stty raw",
      "modprobe x",
    ]) {
      writing(line);
    }
    for (const line of [
      "date",
      "date +%s",
      "date -d tomorrow +%F",
      "date --date now +%F",
      "date -r f",
      "date -I",
      "date -Iseconds",
      "hostname",
      "hostname -s",
      "hostname --fqdn",
      "dnsdomainname",
      "ulimit -a",
      "ulimit -Hn",
    ]) {
      readOnly(line);
    }
  });

  it("reads the files a list names: read:* (wc --files0-from, sha256sum -c, file -f)", () => {
    for (const line of [
      "wc --files0-from=l",
      "du --files0-from l",
      "sort --files0-from=l",
      "file -f l",
      "md5sum -c l",
    ]) {
      assert.deepEqual(inspectCommand(argv(line)).files, { reads: ["*"], writes: [] }, line);
    }
    assert.equal(inspectCommand(argv("sha256sum -b f")).files, undefined);
  });

  it("knows options that make read-only commands write", () => {
    writing("sort -o out f");
    writing("sort --output=out f");
    writing("sort --compress-program=sh f");
    writing("uniq in out");
    writing("tree -o out");
    writing("date -s 2020-01-01");
    writing("rg --pre ./x pattern");
    writing("less -o log f");
    writing("hostname newname");
    writing("tar -xzf a.tgz");
    readOnly("tar -tzf a.tgz");
    readOnly("tar tvf a.tar");
    readOnly("unzip -l a.zip");
    writing("unzip a.zip");
  });
});

describe("classifyCommand: git", () => {
  it("treats git -c, --config-env, --exec-path, --git-dir and --work-tree as writing", () => {
    writing("git -c core.hooksPath=/tmp/h commit", /-c/);
    writing("git -c core.pager=sh log", /-c/);
    writing("git -c color.ui=false status", /configuration/);
    writing("git --config-env=core.pager=X log");
    writing("git --exec-path=/tmp/x status", /exec-path/);
    writing("git --git-dir=/tmp/r/.git status", /another repository/);
    writing("git --work-tree=/tmp status", /another repository/);
    readOnly("git --exec-path");
    readOnly("git -C sub status");
    readOnly("git --no-pager log");
  });

  it("treats subcommands that run hooks as writing, and says so", () => {
    for (const sub of [
      "commit",
      "merge",
      "rebase",
      "checkout",
      "switch",
      "push",
      "pull",
      "am",
      "clone",
      "cherry-pick",
    ]) {
      writing(`git ${sub} x`, /hooks/);
    }
    for (const sub of ["add", "rm", "mv", "clean", "init", "apply"]) writing(`git ${sub} x`, /changes/);
    writing("git reset --hard", /hooks/);
    writing("git stash", /stash/);
    writing("git frobnicate", /unknown git subcommand/);
  });

  it("lists branches, tags, remotes, stashes and configuration read-only, changes them writing", () => {
    readOnly("git branch -a -v");
    readOnly("git branch --show-current");
    readOnly("git branch --contains HEAD");
    writing("git branch feature");
    writing("git branch -d feature");
    writing("git branch -m a b");
    readOnly("git tag");
    readOnly("git tag -l v1.*");
    writing("git tag v1");
    writing("git tag -d v1");
    readOnly("git remote");
    readOnly("git remote -v");
    readOnly("git remote get-url origin");
    writing("git remote add origin url");
    writing("git remote set-url origin url");
    readOnly("git stash list");
    readOnly("git stash show -p");
    readOnly("git config user.name");
    readOnly("git config --get user.name");
    readOnly("git config --list");
    readOnly("git config get user.name");
    writing("git config user.name bob", /sets/);
    writing("git config --unset user.name");
    writing("git config set user.name bob");
    writing("git config --global core.pager sh");
    readOnly("git worktree list");
    writing("git worktree add ../x", /hooks/);
  });

  it("treats output files and pager programs of read-only subcommands as writing", () => {
    writing("git diff --output=patch.txt", /--output/);
    writing("git log --output patch.txt", /--output/);
    writing("git grep -O x", /runs a program/);
    writing("git grep --open-files-in-pager=vim x");
  });
});

describe("classifyCommand: wrappers", () => {
  it("classifies what a transparent wrapper runs", () => {
    readOnly("timeout 5 ls");
    writing("timeout 5 rm f", /timeout runs rm/);
    readOnly("nice -n 5 ls");
    readOnly("nice -10 ls");
    readOnly("nice");
    writing("nice rm f");
    readOnly("nohup ls");
    writing("nohup rm f");
    readOnly("time ls");
    writing("time rm f");
    readOnly("env FORCE_COLOR=0 ls");
    writing("env rm f");
    writing("env PATH=/tmp ls", /PATH/);
    readOnly("xargs grep x");
    readOnly("xargs");
    writing("xargs rm", /rm/);
    // xargs appends its input to the command: those words may be options (`-delete`, `-i`).
    writing("xargs find .", /find/);
    writing("xargs sed -n p", /sed/);
    readOnly("xargs -I{} cat {}");
    writing("xargs -I{} find {}", /find/);
    readOnly("find . -exec find {} -prune ;");
    assert.deepEqual(inspectCommand(argv("xargs -0 -I % cp % d")).nested, [
      { kind: "argv", from: 4, to: 7, assigns: 0, placeholder: { text: "%", pathOnly: false } },
    ]);
    assert.deepEqual(inspectCommand(argv("xargs -n1 rm")).nested, [
      { kind: "argv", from: 2, to: 3, assigns: 0, appends: true },
    ]);
    readOnly("command -v rm");
    writing("command rm x");
    readOnly("stdbuf -oL ls");
    writing("watch rm x", /shell code/);
  });

  it("treats sudo and su as writing whatever they run", () => {
    writing("sudo ls", /privileges/);
    writing("sudo -u root cat f", /privileges/);
    writing("su -c ls root");
    assert.deepEqual(inspectCommand(argv("sudo -u root rm f")).nested, [{ kind: "argv", from: 3, to: 5, assigns: 0 }]);
    assert.deepEqual(inspectCommand(argv("sudo -s rm f")).nested, [{ kind: "script", from: 2, to: 4 }]);
  });

  it("reports shell text for bash -c, eval, trap and alias, and env's assignments and directory", () => {
    assert.deepEqual(inspectCommand(argv("bash -e -c ls x y")).nested, [{ kind: "script", from: 3, to: 4 }]);
    assert.deepEqual(inspectCommand(argv("sh -xc ls")).nested, [{ kind: "script", from: 2, to: 3 }]);
    // eval, trap and alias text runs in this shell (`current`): it can change this shell.
    assert.deepEqual(inspectCommand(argv("eval a b")).nested, [{ kind: "script", from: 1, to: 3, current: true }]);
    assert.deepEqual(inspectCommand(argv("trap x EXIT")).nested, [{ kind: "script", from: 1, to: 2, current: true }]);
    assert.deepEqual(inspectCommand(argv("trap - EXIT")).nested, []);
    assert.deepEqual(inspectCommand(["alias", "a=ls -l"]).nested, [
      { kind: "script", from: 1, to: 2, afterEquals: true, current: true },
    ]);
    assert.deepEqual(inspectCommand(argv("env -i A=1 B=2 ls")).nested, [{ kind: "argv", from: 2, to: 5, assigns: 2 }]);
    assert.deepEqual(inspectCommand(argv("env -C /tmp ls")).nested, [
      { kind: "argv", from: 3, to: 4, assigns: 0, cwd: 2 },
    ]);
  });

  it("refuses to guess when a wrapper's options are unknown or not literal", () => {
    writing("timeout --bogus 5 ls", /unknown option/);
    assert.equal(classifyCommand(["timeout", "$T", "ls"], [false, true, false]).readOnly, false);
    assert.equal(classifyCommand(["xargs", "$OPT", "ls"], [false, true, false]).readOnly, false);
  });
});

describe("classifyCommand: non-literal words", () => {
  it("treats a non-literal command name as writing", () => {
    assert.equal(classifyCommand(["$X", "a"], [true, false]).readOnly, false);
  });

  it("keeps argument-insensitive commands read-only and makes others writing", () => {
    assert.equal(classifyCommand(["cat", "$F"], [false, true]).readOnly, true);
    assert.equal(classifyCommand(["grep", "$P", "f"], [false, true, false]).readOnly, true);
    assert.equal(classifyCommand(["find", ".", "$A"], [false, false, true]).readOnly, false);
    assert.equal(classifyCommand(["sort", "$A", "f"], [false, true, false]).readOnly, false);
    assert.equal(classifyCommand(["sed", "$S", "f"], [false, true, false]).readOnly, false);
    assert.equal(classifyCommand(["git", "log", "$A"], [false, false, true]).readOnly, false);
    assert.equal(classifyCommand(["git", "log", "--", "$A"], [false, false, false, true]).readOnly, true);
    assert.equal(classifyCommand(["git", "$SUB"], [false, true]).readOnly, false);
  });
});

describe("classifyCommand: code bash runs from text", () => {
  it("treats a command in an array subscript as writing, for every command (bash may evaluate it as arithmetic)", () => {
    for (const argv of [
      ["test", "-v", "a[$(rm x)]"],
      ["[", "1", "-eq", "a[`rm x`]", "]"],
      ["let", "a[$(rm x)]=1"],
      ["read", "a[$(rm x)]"],
      ["printf", "-v", "a[$(rm x)]", "x"],
      ["declare", "-i", "n=a[$(rm x)]"],
      ["echo", "a[$(x)]"],
    ]) {
      const c = classifyCommand(argv);
      assert.equal(c.readOnly, false, argv.join(" "));
      assert.match(c.reason, /array subscript/);
    }
    readOnly("echo $(not-a-subscript)");
    assert.equal(harmlessVariable("x", "a[$(rm y)]"), false);
  });

  it("checks the variables read, printf -v, mapfile, getopts and let set", () => {
    readOnly("read -r line");
    readOnly("read -p prompt: -a words");
    readOnly("printf %s\\n x");
    readOnly("printf -v out %s x");
    readOnly("mapfile -t lines");
    readOnly("getopts ab opt");
    writing("let i++ j=2", /arithmetic/);
    writing("read PATH", /PATH/);
    writing("read -a LD_PRELOAD", /LD_PRELOAD/);
    writing("printf -v PATH /tmp", /PATH/);
    writing("printf -vPATH /tmp", /PATH/);
    writing("mapfile BASH_ENV", /BASH_ENV/);
    writing("mapfile -C cb lines", /callback/);
    writing("getopts ab IFS", /IFS/);
    writing("let PATH=1", /arithmetic/);
    assert.equal(classifyCommand(["printf", "%s", "$x"], [false, false, true]).readOnly, true);
    assert.equal(classifyCommand(["printf", "$fmt"], [false, true]).readOnly, false);
    assert.equal(classifyCommand(["read", "$name"], [false, true]).readOnly, false);
  });

  it("guards pagers and output files of documentation and search tools", () => {
    readOnly("man ls");
    writing("man -P sh ls");
    writing("man --pager=sh ls");
    readOnly("info ls");
    writing("info -o out ls");
    readOnly("ag foo");
    writing("ag --pager=sh foo");
    readOnly("bat f");
    writing("bat --pager=sh f");
    writing("bat cache --build");
  });
});

describe("harmlessVariable", () => {
  it("accepts shell-local, locale and colour variables, and a pager set to cat", () => {
    for (const name of ["x", "my_var", "LC_ALL", "LANG", "TZ", "NO_COLOR", "COLUMNS"]) {
      assert.equal(harmlessVariable(name, "v"), true, name);
    }
    assert.equal(harmlessVariable("GIT_PAGER", "cat"), true);
    assert.equal(harmlessVariable("PAGER", "sh -c x"), false);
    assert.equal(harmlessVariable("PAGER", null), false);
  });

  it("rejects variables that change what programs run or read", () => {
    for (const name of ["PATH", "LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "ENV", "IFS", "HOME", "GIT_DIR"]) {
      assert.equal(harmlessVariable(name, "v"), false, name);
    }
    for (const name of ["GIT_SSH_COMMAND", "NODE_OPTIONS", "PYTHONPATH", "EDITOR", "XDG_CONFIG_HOME", "FOO"]) {
      assert.equal(harmlessVariable(name, "v"), false, name);
    }
  });

  it("classifies declarations by the variables they set", () => {
    readOnly("export a_b=1");
    writing("export A_b=1");
    readOnly("export PATH");
    readOnly("local x=1");
    writing("export PATH=/tmp", /PATH/);
    writing("declare -x LD_PRELOAD=x", /LD_PRELOAD/);
  });
});

describe("classifyCommand: what the red team found", () => {
  it("takes any abbreviation of a dangerous long option for the option (getopt_long, git, curl)", () => {
    writing("sort --outp=sorted.txt x.txt");
    writing("sort --o=sorted.txt x.txt");
    writing("file --compi -m magic");
    writing("git config --unset-al core.bare");
    writing("git grep --open='rm x' needle");
    writing("git grep --open-files-in-pager=vi needle");
    writing("git log --outp=f");
    readOnly("sort -r x.txt");
    readOnly("git log --oneline");
    readOnly("git config --get user.name");
    readOnly("rg --pre-glob '*.gz' x");
  });

  it("knows the options of read-only commands that run programs", () => {
    writing("tar -tf archive.tar --checkpoint=1 --checkpoint-action=exec='rm x'");
    writing("tar -tf archive.tar -I 'rm x'");
    writing("tar -tf archive.tar --to-command=sh");
    writing("git ls-remote --upload-pack='rm x;' .");
    writing("git ls-remote -u 'rm x' .");
    writing("git grep -nO'rm x' needle");
    writing("git grep -O needle");
    readOnly("tar -tf archive.tar");
    readOnly("tar -tvzf archive.tgz");
    readOnly("tar --list --file=a.tar");
    // It reaches the remote: the network is never read-only.
    writing("git ls-remote origin", /network/);
    writing("git remote show origin");
    readOnly("git remote show -n origin");
    writing("npm ls", /logs and caches/);
    writing("pip list", /logs and caches/);
    writing("jobs -x rm x", /-x/);
    writing("ps eww", /environments/);
    readOnly("ps -ef");
    writing("man -C cfg ls");
    writing("less -k keys f");
    writing("less --lesskey-src=f g");
    writing("unzip -q a.zip -x -l");
    readOnly("unzip -l a.zip");
    writing("unset a[x]");
    readOnly("unset a[0] b");
    writing("wait -p v -n");
    readOnly("git grep -n needle");
  });

  it("does not read awk programs as syntax: any system, getline, pipe or redirection is writing", () => {
    const awk = (program: string) => classifyCommand(["awk", program, "f"]).readOnly;
    assert.equal(awk('BEGIN { system\\\n("rm x") }'), false);
    assert.equal(awk('BEGIN { getline s < "/etc/passwd"; print s }'), false);
    assert.equal(awk("$1 > 2"), false);
    assert.equal(awk("{ print $1 }"), true);
  });

  it("treats namerefs, integer variables and test's arithmetic as code", () => {
    writing("declare -n p=PS4", /name references/);
    writing("local -i n=x", /integer/);
    writing("typeset -ni x");
    readOnly("declare -a list");
    readOnly("export EDITOR_WIDTH_X=1".replace("EDITOR_WIDTH_X", "x"));
    writing("test -v name", /-v/);
    writing("[ x -eq 1 ]", /arithmetic/);
    assert.equal(classifyCommand(["[", "$n", "-gt", "0", "]"], [false, true, false, false, false]).readOnly, false);
    assert.equal(classifyCommand(["[", "-f", "$f", "]"], [false, false, true, false]).readOnly, true);
    assert.equal(classifyCommand(["test", "$a", "=", "$b"], [false, true, false, true]).readOnly, true);
    readOnly("[ 3 -gt 2 ]");
  });
});
