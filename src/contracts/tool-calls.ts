/** A tool call as the model wrote it. `invalid` marks input the SDK could not parse or validate. */
export interface ModelToolCall {
  id: string;
  name: string;
  input: unknown;
  invalid?: boolean;
  error?: string;
}
