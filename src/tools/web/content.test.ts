import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { webfetchRequests } from "../webfetch.js";
import { renderBody } from "./content.js";

const PAGE = `<!doctype html><html><head><title>T</title><style>p{}</style></head><body>
<h1>Hello</h1><p>A <b>bold</b> <a href="/x">link</a>, 2*3 <img src="logo.png" alt="logo"></p>
<script>alert(1)</script><ul><li>one</li><li>two</li></ul></body></html>`;

describe("what a fetched body becomes", () => {
  it("HTML as markdown: headings, emphasis, lists, links made absolute; scripts and styles dropped", () => {
    const out = renderBody(Buffer.from(PAGE), "text/html; charset=utf-8", "markdown", "https://ex.com/a/b");
    assert.ok("text" in out);
    const text = "text" in out ? out.text : "";
    assert.match(text, /^# Hello$/m);
    assert.match(
      text,
      /A \*\*bold\*\* \[link\]\(https:\/\/ex\.com\/x\), 2\\\*3 !\[logo\]\(https:\/\/ex\.com\/a\/logo\.png\)/,
    );
    assert.match(text, /^- +one$/m);
    assert.doesNotMatch(text, /alert|p\{\}/);
  });

  it("HTML as plain text, or as it came", () => {
    const text = renderBody(Buffer.from(PAGE), "text/html", "text");
    assert.ok("text" in text && /^Hello$/m.test(text.text) && /A bold link, 2\*3/.test(text.text));
    assert.ok("text" in text && !/alert/.test(text.text));
    const raw = renderBody(Buffer.from(PAGE), "text/html", "html");
    assert.ok("text" in raw && raw.text === PAGE);
  });

  it("other text passes through, decoded in its charset; HTML without a type is still seen as HTML", () => {
    const latin = renderBody(Buffer.from("caf\xe9", "latin1"), "text/plain; charset=iso-8859-1", "markdown");
    assert.deepEqual(latin, { text: "café", type: "text/plain" });
    const json = renderBody(Buffer.from('{"a":1}'), "application/json", "markdown");
    assert.deepEqual(json, { text: '{"a":1}', type: "application/json" });
    const untyped = renderBody(Buffer.from("<html><body><h2>Hi</h2></body></html>"), undefined, "markdown");
    assert.ok("text" in untyped && untyped.text === "## Hi");
  });

  it("binary is refused, by its type or, without one, by its bytes", () => {
    assert.deepEqual(renderBody(Buffer.from([137, 80, 78, 71]), "image/png", "markdown"), { binary: "image/png" });
    assert.deepEqual(renderBody(Buffer.from([0, 1, 2, 255]), undefined, "text"), { binary: "unknown type" });
    assert.deepEqual(renderBody(Buffer.from("%PDF-1.7"), "application/pdf", "text"), { binary: "application/pdf" });
  });
});

describe("webfetch's request", () => {
  it("is web:<host>, an IPv6 literal without brackets", () => {
    assert.deepEqual(webfetchRequests("https://docs.example.com:8443/a?b"), {
      requests: [{ action: "web", resource: "docs.example.com" }],
    });
    assert.deepEqual(webfetchRequests("http://[::1]:8080/"), { requests: [{ action: "web", resource: "::1" }] });
  });

  it("a URL that is not http(s), or no URL, cannot be described: never allowed", () => {
    assert.match(
      webfetchRequests("file:///etc/passwd").problem ?? "",
      /only http and https URLs are fetched, not file:/,
    );
    assert.match(webfetchRequests("ftp://x/y").problem ?? "", /not ftp:/);
    assert.match(webfetchRequests("not a url").problem ?? "", /is not a URL/);
  });
});
