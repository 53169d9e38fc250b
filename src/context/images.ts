import type { ModelMessage } from "ai";

/** Most images one request carries: the oldest beyond it are replaced by a note. */
export const IMAGE_BUDGET = 8;

export interface ImageData {
  mediaType: string;
  /** Base64. */
  data: string;
}

export interface ImageLimits {
  /** Whether the model takes images (its catalog entry). */
  accepts: boolean;
  budget?: number;
}

/**
 * The images of a request as the model can take them: none for a text-only model (each replaced
 * by a short note saying so), else the newest `budget`, older ones replaced by a note (the text
 * before each image names its file, so the note needs no name). Returns how
 * many were withheld or dropped. Messages are copied, never changed in place.
 */
export function fitImages(
  messages: readonly ModelMessage[],
  limits: ImageLimits,
): { messages: ModelMessage[]; withheld: number; dropped: number } {
  const budget = limits.budget ?? IMAGE_BUDGET;
  let total = 0;
  for (const message of messages) {
    if (message.role === "user" && Array.isArray(message.content)) {
      total += message.content.filter((part) => part.type === "image").length;
    }
  }
  if (total === 0) return { messages: [...messages], withheld: 0, dropped: 0 };
  let seen = 0;
  let withheld = 0;
  let dropped = 0;
  const out = messages.map((message): ModelMessage => {
    if (message.role !== "user" || !Array.isArray(message.content)) return message;
    return {
      ...message,
      content: message.content.map((part) => {
        if (part.type !== "image") return part;
        seen++;
        if (!limits.accepts) {
          withheld++;
          return { type: "text" as const, text: "[image not sent: this model does not take images]" };
        }
        if (total - seen >= budget) {
          dropped++;
          return { type: "text" as const, text: `[image no longer sent: only the newest ${budget} images are]` };
        }
        return part;
      }),
    };
  });
  return { messages: out, withheld, dropped };
}
