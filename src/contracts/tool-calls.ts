/** A tool call as the model wrote it. `invalid` marks input the SDK could not parse or validate. */
export interface ModelToolCall {
  id: string;
  name: string;
  input: unknown;
  invalid?: boolean;
  error?: string;
  /** What the provider must get back with the call (Gemini's thought signature), by provider. */
  metadata?: Record<string, Record<string, unknown>>;
}
