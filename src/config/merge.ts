import { appendKey, formatKey, isPlainObject } from "./keypath.js";

/**
 * The one place config layers are merged. Objects merge key by key; anything else (strings,
 * numbers, arrays) is a leaf that a higher layer replaces whole. `onLeaf` is told of every leaf
 * a layer sets, and of the value it replaced, so provenance is kept alongside the value.
 */
export function mergeInto(
  target: Record<string, unknown>,
  layer: Record<string, unknown>,
  onLeaf: (key: string, path: string[], replaced: unknown) => void,
  prefix: string[] = [],
  printed: string = formatKey(prefix),
): void {
  for (const key of Object.keys(layer)) {
    const value = layer[key];
    if (value === undefined) continue;
    const path = [...prefix, key];
    const printedKey = appendKey(printed, key);
    if (isPlainObject(value)) {
      const existing = target[key];
      const child = isPlainObject(existing) ? existing : {};
      target[key] = child;
      mergeInto(child, value, onLeaf, path, printedKey);
    } else {
      const replaced = target[key];
      target[key] = value;
      onLeaf(printedKey, path, replaced);
    }
  }
}

/** Leaf paths of a value, in document order. */
export function leafPaths(value: unknown, prefix: string[] = []): string[][] {
  const out: string[][] = [];
  const visit = (current: unknown, path: string[]) => {
    if (!isPlainObject(current)) out.push(path);
    else for (const key of Object.keys(current)) visit(current[key], [...path, key]);
  };
  visit(value, prefix);
  return out;
}
