/** A valid compaction summary of a session that read notes.txt (every section the summary prompt asks for). */
export const NOTES_SUMMARY = [
  "## Goal",
  "Read the notes.",
  "## Decisions",
  "None yet.",
  "## State of work",
  "notes.txt was read.",
  "## Next step",
  "Answer.",
  "## Relevant files",
  "- notes.txt",
].join("\n");
