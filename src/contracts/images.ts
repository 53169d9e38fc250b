/**
 * Which files are images and how large one may be: the read tool, the attachments a person adds
 * and the model context (context/images.ts) agree on it.
 */

/** Image files bosun sends as images (to models that take them), by extension. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};
/** Largest image sent; providers refuse bigger ones (Anthropic: 5 MB). */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** The media type of an image file, by its extension; undefined for any other file. */
export function imageTypeOf(path: string): string | undefined {
  const dot = path.lastIndexOf(".");
  return dot < 0 ? undefined : IMAGE_TYPES[path.slice(dot + 1).toLowerCase()];
}
