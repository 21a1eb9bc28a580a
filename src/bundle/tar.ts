/**
 * A tar archive (POSIX ustar, as `tar` on Linux and macOS reads it) of a few small files, to be
 * gzipped into the one `.tar.gz` a user attaches to a bug report. Regular files and directories
 * only; names are ASCII and short. Pure.
 *
 * @module
 */

/** One member of an archive. */
export interface TarEntry {
  /** Path inside the archive (`dir/` for a directory), ASCII, at most 100 bytes. */
  name: string;
  /** File content (none for a directory). */
  data?: Uint8Array;
  /** Permission bits (default 0o600 for files, 0o700 for directories). */
  mode?: number;
  /** Modification time, epoch seconds. */
  mtime: number;
}

const _BLOCK = 512;
const _enc = new TextEncoder();

/** The archive of `entries`, in order, ending with the two zero blocks tar expects. */
export function tarArchive(entries: readonly TarEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const e of entries) {
    const dir = e.name.endsWith("/");
    const data = dir ? new Uint8Array(0) : e.data ?? new Uint8Array(0);
    parts.push(_header(e, dir, data.length), data);
    const pad = (_BLOCK - (data.length % _BLOCK)) % _BLOCK;
    if (pad) parts.push(new Uint8Array(pad));
  }
  parts.push(new Uint8Array(2 * _BLOCK));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

function _header(e: TarEntry, dir: boolean, size: number): Uint8Array {
  const name = _enc.encode(e.name);
  if (name.length > 100 || !/^[\x20-\x7e]+$/.test(e.name) || e.name.includes("..")) {
    throw new Error(`tar: unsupported name '${e.name}'`);
  }
  const h = new Uint8Array(_BLOCK);
  h.set(name, 0);
  _octal(h, 100, 8, e.mode ?? (dir ? 0o700 : 0o600));
  _octal(h, 108, 8, 0); // uid
  _octal(h, 116, 8, 0); // gid
  _octal(h, 124, 12, size);
  _octal(h, 136, 12, Math.max(0, Math.floor(e.mtime)));
  h.fill(0x20, 148, 156); // the checksum counts its own field as spaces
  h[156] = dir ? 0x35 : 0x30; // '5' directory, '0' file
  h.set(_enc.encode("ustar\0" + "00"), 257);
  h.set(_enc.encode("uuldana"), 265); // owner and group names: not the user's
  h.set(_enc.encode("uuldana"), 297);
  const sum = h.reduce((n, b) => n + b, 0);
  _octal(h, 148, 7, sum);
  h[155] = 0x20;
  return h;
}

// A zero-padded octal number of width - 1 digits and a NUL.
function _octal(h: Uint8Array, at: number, width: number, value: number): void {
  const digits = value.toString(8);
  if (digits.length > width - 1) throw new Error(`tar: ${value} does not fit`);
  h.set(_enc.encode(digits.padStart(width - 1, "0")), at);
  h[at + width - 1] = 0;
}
