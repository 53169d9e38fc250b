import { z } from "zod";
import { ConfigSchema } from "./schema.js";

/** The JSON Schema text editors use to complete and check `bosun.json`. */
export function configJsonSchema(): string {
  const schema = z.toJSONSchema(ConfigSchema, { io: "input", target: "draft-2020-12" });
  return `${JSON.stringify({ ...schema, title: "bosun.json" }, null, 2)}\n`;
}
