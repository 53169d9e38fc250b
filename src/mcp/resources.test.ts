import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { asCallResult, type ResourceClient, resourceTools } from "./resources.js";

const ctx = { signal: new AbortController().signal } as Parameters<ReturnType<typeof resourceTools>[0]["execute"]>[1];

describe("resourceTools", () => {
  it("lists every page, following nextCursor, and stops at a repeated cursor", async () => {
    const pages: Record<string, { resources: unknown[]; nextCursor?: string }> = {
      "": { resources: [{ uri: "a://1", name: "one" }], nextCursor: "p2" },
      p2: { resources: [{ uri: "a://2", name: "two", mimeType: "text/plain" }], nextCursor: "p2" },
    };
    const client: ResourceClient = {
      listResources: async (params) => pages[params?.cursor ?? ""] ?? { resources: [] },
      readResource: async () => ({ contents: [] }),
    };
    const [list] = resourceTools("srv", client, 1000);
    const result = await list?.execute({}, ctx);
    assert.equal(result?.output, "a://1 — one\na://2 — two (text/plain)");
    assert.equal(result?.summary, "srv: 2 resources");
  });

  it("both tools are one read-only request, mcp:<server>/resources", async () => {
    const client = { listResources: async () => ({ resources: [] }), readResource: async () => ({ contents: [] }) };
    for (const tool of resourceTools("srv", client, 1000)) {
      const described = await tool.requests({ uri: "x" }, {} as never);
      assert.deepEqual(described.requests, [{ action: "mcp", resource: "srv/resources", readOnly: true }]);
    }
  });

  it("a failing read is an error result the model can act on, naming the uri", async () => {
    const client: ResourceClient = {
      listResources: async () => ({ resources: [] }),
      readResource: async () => {
        throw new Error("Resource web://nope not found");
      },
    };
    const result = await resourceTools("srv", client, 1000)[1]?.execute({ uri: "web://nope" }, ctx);
    assert.equal(result?.isError, true);
    assert.match(result?.output ?? "", /failed to read web:\/\/nope: Resource web:\/\/nope not found/);
  });
});

describe("asCallResult", () => {
  it("an image blob is an image; other blobs and texts are embedded resources", () => {
    assert.deepEqual(
      asCallResult([
        { uri: "a://p", mimeType: "image/png", blob: "AAAA" },
        { uri: "a://z", mimeType: "application/zip", blob: "AAAA" },
        { uri: "a://t", text: "hi" },
      ]).content,
      [
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "resource", resource: { uri: "a://z", mimeType: "application/zip", blob: "AAAA" } },
        { type: "resource", resource: { uri: "a://t", text: "hi" } },
      ],
    );
  });
});
