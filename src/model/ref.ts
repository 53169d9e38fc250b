/**
 * A model reference is "provider/model". Model ids may themselves hold slashes
 * (OpenRouter's "anthropic/claude-sonnet-4.5"), so only the first slash splits.
 */
export interface ModelRef {
  provider: string;
  model: string;
}

export function parseModelRef(text: string): ModelRef | undefined {
  const slash = text.indexOf("/");
  if (slash <= 0 || slash === text.length - 1) return undefined;
  return { provider: text.slice(0, slash), model: text.slice(slash + 1) };
}

export function formatModelRef(ref: ModelRef): string {
  return `${ref.provider}/${ref.model}`;
}
