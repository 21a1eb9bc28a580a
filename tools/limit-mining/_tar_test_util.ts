/**
 * Builds a small ustar archive for the miner's tests (the shape npm's tarballs have).
 *
 * @module
 */

import { bytesOf } from "./_bytes_test_util.ts";

const enc = new TextEncoder();

/** A ustar archive of `files` (path → text or bytes). */
export function tarArchive(files: Record<string, string | Uint8Array>): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const [name, content] of Object.entries(files)) {
    const data = typeof content === "string" ? enc.encode(content) : content;
    const header = new Uint8Array(512);
    const put = (at: number, text: string) => header.set(enc.encode(text), at);
    put(0, name);
    put(100, "0000644\0");
    put(108, "0000000\0");
    put(116, "0000000\0");
    put(124, data.length.toString(8).padStart(11, "0") + "\0");
    put(136, "00000000000\0");
    put(148, "        ");
    put(156, "0");
    put(257, "ustar\x0000");
    const sum = header.reduce((n, b) => n + b, 0);
    put(148, sum.toString(8).padStart(6, "0") + "\0 ");
    blocks.push(header);
    const body = new Uint8Array(Math.ceil(data.length / 512) * 512);
    body.set(data);
    blocks.push(body);
  }
  blocks.push(new Uint8Array(1024));
  return bytesOf(...blocks);
}
