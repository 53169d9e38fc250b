// Preloaded (node --require) into a measured process: at exit, its peak resident set size in KiB
// (getrusage's ru_maxrss) is written to BENCH_RSS_FILE. Used for memory only, never in a timed run.
const { writeFileSync } = require("node:fs");
process.on("exit", () => {
  if (process.env.BENCH_RSS_FILE) writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS));
});
