import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { configJsonSchema } from "./json-schema.js";

/** `npm run schema`: regenerates schema/bosun.schema.json from the zod schema. */
const target = fileURLToPath(new URL("../../schema/bosun.schema.json", import.meta.url));
writeFileSync(target, configJsonSchema());
console.log(`wrote ${target}`);
