/**
 * Packages shipped inside a binary: Copilot CLI's Node single-executable carries its npm package
 * as a gzipped tarball. This finds gzip members in a binary's bytes, inflates them, and lists the
 * files of the ones that are tar archives.
 *
 * @module
 */
import zlib from "node:zlib";

/** The most a member may inflate to (Copilot's package is 245 MB). */
const MAX_INFLATED = 1024 * 1024 * 1024;

/** One file inside an archive found in a binary. */
export interface EmbeddedFile {
  /** Its path inside the archive (`package/cli-main.js`). */
  name: string;
  bytes: Uint8Array;
}

/** Inflates the gzip member at the start of `bytes`, ignoring whatever follows it (or null). */
export function gunzipPrefix(bytes: Uint8Array): Uint8Array | null {
  const flags = bytes[3];
  let at = 10;
  if (flags & 4) at += 2 + (bytes[at] | (bytes[at + 1] << 8)); // FEXTRA
  if (flags & 8) { while (at < bytes.length && bytes[at++] !== 0); // FNAME
   }
  if (flags & 16) { while (at < bytes.length && bytes[at++] !== 0); // FCOMMENT
   }
  if (flags & 2) at += 2; // FHCRC
  try {
    // Raw inflate stops at the member's last block; gunzip would read what follows as a member.
    return zlib.inflateRawSync(bytes.subarray(at), { maxOutputLength: MAX_INFLATED });
  } catch {
    return null;
  }
}

/** Offsets of gzip members (magic 1F 8B, deflate, no reserved flags) in `bytes`. */
export function gzipOffsets(bytes: Uint8Array): number[] {
  const found: number[] = [];
  for (
    let i = bytes.indexOf(0x1f);
    i >= 0 && i + 10 < bytes.length;
    i = bytes.indexOf(0x1f, i + 1)
  ) {
    if (bytes[i + 1] === 0x8b && bytes[i + 2] === 8 && (bytes[i + 3] & 0xe0) === 0) found.push(i);
  }
  return found;
}

/** The regular files of a tar archive (ustar, GNU long names, pax paths), or [] if it is not one. */
export function tarFiles(tar: Uint8Array): EmbeddedFile[] {
  const files: EmbeddedFile[] = [];
  const ascii = (from: number, len: number) => {
    let s = "";
    for (let k = from; k < from + len && tar[k] !== 0; k++) s += String.fromCharCode(tar[k]);
    return s;
  };
  let longName: string | null = null;
  for (let at = 0; at + 512 <= tar.length;) {
    if (tar[at] === 0) break;
    if (ascii(at + 257, 5) !== "ustar") return files;
    const size = parseInt(ascii(at + 124, 12).trim() || "0", 8);
    const type = String.fromCharCode(tar[at + 156] || 48);
    const prefix = ascii(at + 345, 155);
    const body = at + 512;
    const data = tar.subarray(body, body + size);
    if (type === "L") longName = new TextDecoder().decode(data).replace(/\0.*$/s, "");
    else if (type === "x") {
      const m = /\d+ path=([^\n]*)\n/.exec(new TextDecoder().decode(data));
      if (m) longName = m[1];
    } else {
      const name = longName ?? (prefix ? prefix + "/" : "") + ascii(at, 100);
      longName = null;
      if (type === "0" || type === "\0") files.push({ name, bytes: data });
    }
    at = body + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** Every file of every tar archive gzipped inside `bytes`. */
export function embeddedFiles(bytes: Uint8Array): EmbeddedFile[] {
  const files: EmbeddedFile[] = [];
  for (const at of gzipOffsets(bytes)) {
    const inflated = gunzipPrefix(bytes.subarray(at));
    if (inflated && inflated.length >= 512) files.push(...tarFiles(inflated));
  }
  return files;
}
