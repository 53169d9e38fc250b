import { isIPv4, isIPv6 } from "node:net";

/**
 * Which kind of address an IP is, for the web tools' refusal of what lies inside this machine
 * or its networks (seat web.address). Pure. IPv6 forms that carry an IPv4 address — mapped
 * (`::ffff:127.0.0.1`, `::ffff:7f00:1`), compatible (`::127.0.0.1`), NAT64 (`64:ff9b::…`) and
 * 6to4 (`2002:7f00:1::`) — are judged as the IPv4 address they carry: each of them can reach it.
 */
export type AddressClass =
  | { public: true }
  | {
      public: false;
      /** The range it lies in, as CIDR: `127.0.0.0/8`. */
      range: string;
      /** What the range is: `loopback`, `private`, `cloud metadata`, ... */
      name: string;
    };

interface Range {
  base: bigint;
  bits: number;
  size: 32 | 128;
  cidr: string;
  name: string;
}

function v4Range(cidr: string, name: string): Range {
  const [ip, bits] = cidr.split("/") as [string, string];
  return { base: v4Value(ip), bits: Number(bits), size: 32, cidr, name };
}

function v6Range(cidr: string, name: string): Range {
  const [ip, bits] = cidr.split("/") as [string, string];
  return { base: v6Value(ip) as bigint, bits: Number(bits), size: 128, cidr, name };
}

// Single addresses first: a metadata service inside a wider range is named for what it is.
const V4: readonly Range[] = [
  v4Range("169.254.169.254/32", "cloud metadata"),
  v4Range("169.254.170.2/32", "cloud metadata"),
  v4Range("100.100.100.200/32", "cloud metadata"),
  v4Range("168.63.129.16/32", "cloud metadata"),
  v4Range("192.0.0.192/32", "cloud metadata"),
  v4Range("0.0.0.0/8", "this host"),
  v4Range("10.0.0.0/8", "private"),
  v4Range("100.64.0.0/10", "carrier-grade NAT"),
  v4Range("127.0.0.0/8", "loopback"),
  v4Range("169.254.0.0/16", "link-local"),
  v4Range("172.16.0.0/12", "private"),
  v4Range("192.0.0.0/24", "IETF protocol assignments"),
  v4Range("192.0.2.0/24", "documentation"),
  v4Range("192.88.99.0/24", "6to4 relay"),
  v4Range("192.168.0.0/16", "private"),
  v4Range("198.18.0.0/15", "benchmarking"),
  v4Range("198.51.100.0/24", "documentation"),
  v4Range("203.0.113.0/24", "documentation"),
  v4Range("224.0.0.0/4", "multicast"),
  v4Range("240.0.0.0/4", "reserved"),
];

const V6: readonly Range[] = [
  v6Range("fd00:ec2::254/128", "cloud metadata"),
  v6Range("::/128", "unspecified"),
  v6Range("::1/128", "loopback"),
  v6Range("100::/64", "discard"),
  v6Range("2001:db8::/32", "documentation"),
  v6Range("fc00::/7", "unique-local"),
  v6Range("fe80::/10", "link-local"),
  v6Range("fec0::/10", "site-local"),
  v6Range("ff00::/8", "multicast"),
];

/** Where an IPv6 range carries an IPv4 address: its prefix and the bit the IPv4 address ends at. */
const CARRIERS: ReadonlyArray<{ range: Range; shift: bigint; form: string }> = [
  { range: v6Range("::ffff:0:0/96", "IPv4-mapped"), shift: 0n, form: "IPv4-mapped" },
  { range: v6Range("::/96", "IPv4-compatible"), shift: 0n, form: "IPv4-compatible" },
  { range: v6Range("64:ff9b::/96", "NAT64"), shift: 0n, form: "NAT64" },
  { range: v6Range("2002::/16", "6to4"), shift: 80n, form: "6to4" },
];

/** The class of an IP address (either family); a string that is no IP address is not public. */
export function classifyAddress(ip: string): AddressClass {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  if (isIPv4(bare)) return classifyIn(v4Value(bare), V4) ?? { public: true };
  const value = v6Value(bare);
  if (value === undefined) return { public: false, range: "none", name: "not an IP address" };
  const own = classifyIn(value, V6);
  if (own) return own;
  for (const carrier of CARRIERS) {
    if (!inRange(value, carrier.range)) continue;
    // `::` and `::1` are in ::/96 too, and were judged above; any other carried address is its IPv4's.
    const carried = (value >> carrier.shift) & 0xffffffffn;
    const inner = classifyIn(carried, V4);
    if (inner) return { public: false, range: inner.range, name: `${inner.name} (${carrier.form} ${v4Text(carried)})` };
    return { public: true };
  }
  return { public: true };
}

function classifyIn(value: bigint, ranges: readonly Range[]): Extract<AddressClass, { public: false }> | undefined {
  const found = ranges.find((range) => inRange(value, range));
  return found ? { public: false, range: found.cidr, name: found.name } : undefined;
}

function inRange(value: bigint, range: Range): boolean {
  const shift = BigInt(range.size - range.bits);
  return value >> shift === range.base >> shift;
}

function v4Value(ip: string): bigint {
  return ip.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function v4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join(".");
}

/** An IPv6 address as a 128-bit number (a trailing dotted IPv4 part and a zone id allowed); undefined when it is none. */
export function v6Value(ip: string): bigint | undefined {
  const text = ip.replace(/%.*$/, "");
  if (!isIPv6(text)) return undefined;
  let head = text;
  let tail: bigint[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const v4 = v4Value(dotted[1]);
    tail = [v4 >> 16n, v4 & 0xffffn];
    head = text.slice(0, -dotted[1].length);
    if (head.endsWith(":") && !head.endsWith("::")) head = head.slice(0, -1);
  }
  const [left = "", right] = head.split("::") as [string, string | undefined];
  const groups = (part: string) => (part === "" ? [] : part.split(":").map((g) => BigInt(`0x${g}`)));
  const before = groups(left);
  const after = right === undefined ? [] : groups(right);
  const missing = 8 - tail.length - before.length - after.length;
  const all = [...before, ...Array<bigint>(right === undefined ? 0 : missing).fill(0n), ...after, ...tail];
  if (all.length !== 8) return undefined;
  return all.reduce((acc, group) => (acc << 16n) | group, 0n);
}
