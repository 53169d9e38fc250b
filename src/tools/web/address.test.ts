import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { classifyAddress, v6Value } from "./address.js";

const refused = (ip: string) => {
  const found = classifyAddress(ip);
  assert.equal(found.public, false, `${ip} should not be public`);
  return found.public ? "" : `${found.name} ${found.range}`;
};
const isPublic = (ip: string) => assert.equal(classifyAddress(ip).public, true, `${ip} should be public`);

describe("address classifier", () => {
  it("refuses every IPv4 range inside a machine or its networks, naming it", () => {
    const cases: Array<[string, RegExp]> = [
      ["0.0.0.0", /this host 0\.0\.0\.0\/8/],
      ["10.1.2.3", /private 10\.0\.0\.0\/8/],
      ["100.64.0.1", /carrier-grade NAT/],
      ["100.127.255.255", /carrier-grade NAT/],
      ["127.0.0.1", /loopback 127\.0\.0\.0\/8/],
      ["127.255.255.254", /loopback/],
      ["169.254.1.1", /link-local 169\.254\.0\.0\/16/],
      ["169.254.169.254", /cloud metadata 169\.254\.169\.254\/32/],
      ["169.254.170.2", /cloud metadata/],
      ["100.100.100.200", /cloud metadata/],
      ["168.63.129.16", /cloud metadata/],
      ["172.16.0.1", /private 172\.16\.0\.0\/12/],
      ["172.31.255.255", /private/],
      ["192.168.0.1", /private 192\.168\.0\.0\/16/],
      ["192.0.0.192", /cloud metadata/],
      ["198.18.0.1", /benchmarking/],
      ["224.0.0.1", /multicast/],
      ["255.255.255.255", /reserved/],
    ];
    for (const [ip, expected] of cases) assert.match(refused(ip), expected, ip);
  });

  it("lets public IPv4 addresses through, the edges of the ranges included", () => {
    for (const ip of ["8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.0", "172.15.255.255", "172.32.0.0"]) {
      isPublic(ip);
    }
    isPublic("192.169.0.1");
    isPublic("169.253.255.255");
  });

  it("refuses IPv6 loopback, unspecified, link-local, unique-local, site-local, multicast and metadata", () => {
    assert.match(refused("::1"), /loopback ::1\/128/);
    assert.match(refused("0:0:0:0:0:0:0:1"), /loopback/);
    assert.match(refused("::"), /unspecified/);
    assert.match(refused("fe80::1"), /link-local/);
    assert.match(refused("fe80::1%eth0"), /link-local/);
    assert.match(refused("febf::1"), /link-local/);
    assert.match(refused("fc00::1"), /unique-local/);
    assert.match(refused("fd12:3456::1"), /unique-local/);
    assert.match(refused("fd00:ec2::254"), /cloud metadata/);
    assert.match(refused("fec0::1"), /site-local/);
    assert.match(refused("ff02::1"), /multicast/);
    assert.match(refused("[::1]"), /loopback/);
  });

  it("judges IPv6 forms that carry an IPv4 address as that address", () => {
    assert.match(refused("::ffff:127.0.0.1"), /loopback \(IPv4-mapped 127\.0\.0\.1\) 127\.0\.0\.0\/8/);
    assert.match(refused("::ffff:7f00:1"), /loopback .*IPv4-mapped 127\.0\.0\.1/);
    assert.match(refused("::FFFF:A9FE:A9FE"), /cloud metadata .*169\.254\.169\.254/);
    assert.match(refused("0:0:0:0:0:ffff:10.0.0.1"), /private/);
    assert.match(refused("::127.0.0.1"), /loopback .*IPv4-compatible/);
    assert.match(refused("64:ff9b::a9fe:a9fe"), /cloud metadata .*NAT64/);
    assert.match(refused("64:ff9b::192.168.1.1"), /private .*NAT64/);
    assert.match(refused("2002:7f00:1::"), /loopback .*6to4 127\.0\.0\.1/);
    assert.match(refused("2002:c0a8:101::1"), /private .*6to4 192\.168\.1\.1/);
    isPublic("::ffff:8.8.8.8");
    isPublic("64:ff9b::808:808");
    isPublic("2002:808:808::1");
  });

  it("lets public IPv6 through", () => {
    isPublic("2606:4700:4700::1111");
    isPublic("2001:4860:4860::8888");
    isPublic("fbff::1");
  });

  it("a string that is no address is never public", () => {
    assert.equal(classifyAddress("example.com").public, false);
    assert.equal(classifyAddress("1.2.3").public, false);
  });

  it("reads every IPv6 spelling to the same number", () => {
    assert.equal(v6Value("::1"), 1n);
    assert.equal(v6Value("::ffff:127.0.0.1"), v6Value("::ffff:7f00:1"));
    assert.equal(v6Value("1:2:3:4:5:6:7:8"), v6Value("0001:0002:0003:0004:0005:0006:0007:0008"));
    assert.equal(v6Value("nope"), undefined);
  });
});
