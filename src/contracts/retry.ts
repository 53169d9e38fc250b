/** First backoff step of a model request's retries; it doubles with each attempt (model/retry.ts). The seat catalog states it. */
export const BASE_DELAY_MS = 1000;
