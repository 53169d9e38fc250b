import { z } from "zod";

/**
 * The shape of catalog-data.json: models.dev's api.json cut to bosun's built-in providers and
 * the fields bosun reads. Checked by the test of the data file and by scripts/refresh-catalog.ts
 * before it writes; never at start-up (the file is bosun's own, and zod is not loaded for it).
 */
const Price = z.number().min(0);

export const CatalogEntrySchema = z.object({
  limit: z.object({ context: z.int().positive(), output: z.int().positive() }).optional(),
  cost: z
    .object({
      input: Price,
      output: Price,
      cache_read: Price.optional(),
      cache_write: Price.optional(),
    })
    .optional(),
  modalities: z.object({ input: z.array(z.string()), output: z.array(z.string()) }).optional(),
  tool_call: z.boolean().optional(),
  reasoning: z.boolean().optional(),
});

export const CatalogDataSchema = z.strictObject({
  updated: z.iso.date(),
  source: z.string().min(1),
  providers: z.record(z.string(), z.strictObject({ models: z.record(z.string(), CatalogEntrySchema) })),
});

export type CatalogEntry = z.infer<typeof CatalogEntrySchema>;
export type CatalogData = z.infer<typeof CatalogDataSchema>;
