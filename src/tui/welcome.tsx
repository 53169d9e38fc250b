import { homedir } from "node:os";
import { Box, Text } from "ink";

/** The keys a first look needs most: the command menu, stopping the agent, leaving. */
export const WELCOME_KEYS = "/ commands · Esc interrupts · Ctrl-C quits";

/** `directory` with the home folder written `~`. */
export function shortDirectory(directory: string, home = homedir()): string {
  if (home === "" || home === "/") return directory;
  if (directory === home) return "~";
  return directory.startsWith(`${home}/`) ? `~${directory.slice(home.length)}` : directory;
}

/**
 * Drawn once, at the top: bosun's version, where it works, the model and mode it opened with
 * (the status line follows any switch), and the keys to start with.
 */
export function Welcome({
  version,
  directory,
  model,
  agent,
  mode,
  home,
}: {
  version: string;
  directory: string;
  model: string;
  agent: string;
  mode: string;
  home?: string;
}) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="blue" paddingX={1} marginBottom={1}>
      <Text>
        <Text bold>bosun {version}</Text> · {shortDirectory(directory, home)}
      </Text>
      <Text>
        model <Text color="cyan">{model}</Text> · agent {agent} · mode <Text color="cyan">{mode}</Text>
      </Text>
      <Text dimColor>{WELCOME_KEYS}</Text>
    </Box>
  );
}
