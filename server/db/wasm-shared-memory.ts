/**
 * Declares a WebAssembly module's `env.memory` import shared, so that PGlite's engine and the side modules
 * Postgres loads (plpgsql.so, …) run on a memory another thread can write: the stack's thread raises
 * Postgres's interrupt flags there (pglite-interrupt.ts). Nothing else in a module changes. Plain
 * TypeScript with no imports: the engine's worker thread loads it too (pglite-engine-worker.ts).
 */

/** The `env.memory` import of a module: where its limits are, and what they say. */
export interface MemoryImport {
  /** Byte offsets of the import section's content and of the memory import's limits. */
  section: { start: number; end: number; sizeStart: number };
  limits: { start: number; end: number };
  flags: number;
  initial: number;
  maximum: number | null;
}

const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) {
      byte |= 0x80;
    }
    out.push(byte);
  } while (n > 0);
  return out;
};

/** Finds `env.memory` in a module's import section (wasm binary format 1, section 2). */
function findMemoryImport(bytes: Uint8Array): MemoryImport | null {
  let p = 8;
  const leb = () => {
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = bytes[p++]!;
      result += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return result;
  };
  const decoder = new TextDecoder();
  const name = () => {
    const length = leb();
    const text = decoder.decode(bytes.subarray(p, p + length));
    p += length;
    return text;
  };
  while (p < bytes.length) {
    const id = bytes[p++]!;
    const sizeStart = p;
    const size = leb();
    const start = p;
    const end = p + size;
    if (id === 2) {
      const count = leb();
      for (let i = 0; i < count; i++) {
        const module = name();
        const field = name();
        const kind = bytes[p++]!;
        if (kind === 0) {
          leb(); // function: type index
        } else if (kind === 1) {
          p++; // table: element type
          const flags = bytes[p++]!;
          leb();
          if (flags & 1) {
            leb();
          }
        } else if (kind === 2) {
          const limitsStart = p;
          const flags = bytes[p++]!;
          const initial = leb();
          const maximum = flags & 1 ? leb() : null;
          if (module !== 'env' || field !== 'memory' || flags > 1) {
            return null;
          }
          return {
            section: { start, end, sizeStart },
            limits: { start: limitsStart, end: p },
            flags,
            initial,
            maximum,
          };
        } else if (kind === 3) {
          p += 2; // global: value type, mutability
        } else if (kind === 4) {
          p++;
          leb(); // tag
        } else {
          return null;
        }
      }
      return null;
    }
    p = end;
  }
  return null;
}

/**
 * The module with its `env.memory` import declared shared (limits flags 0x03, a maximum of `maximum` pages
 * when it declared none), the import section rebuilt around it; null when it imports no plain memory.
 */
export function withSharedMemory(
  bytes: Uint8Array,
  maximum: number,
): { bytes: Uint8Array; memory: MemoryImport } | null {
  const memory = findMemoryImport(bytes);
  if (!memory) {
    return null;
  }
  const limits = [0x03, ...uleb(memory.initial), ...uleb(memory.maximum ?? maximum)];
  const contentLength =
    memory.limits.start - memory.section.start + limits.length + (memory.section.end - memory.limits.end);
  const size = uleb(contentLength);
  // Copied as typed-array ranges: the engine is 9 MB, and spreading it into an array took most of a second.
  const out = new Uint8Array(
    memory.section.sizeStart + size.length + contentLength + (bytes.length - memory.section.end),
  );
  let at = 0;
  const put = (part: Uint8Array | number[]) => {
    out.set(part, at);
    at += part.length;
  };
  put(bytes.subarray(0, memory.section.sizeStart));
  put(size);
  put(bytes.subarray(memory.section.start, memory.limits.start));
  put(limits);
  put(bytes.subarray(memory.limits.end, memory.section.end));
  put(bytes.subarray(memory.section.end));
  return { bytes: out, memory };
}

/** The part of emscripten's file system API used to patch the side modules. */
export interface EmscriptenFs {
  readdir(path: string): string[];
  readFile(path: string): Uint8Array;
  writeFile(path: string, data: Uint8Array): void;
}

/**
 * Postgres loads its side modules (plpgsql.so, encoding conversions, dictionaries) on first use, into the
 * engine's memory: each must declare that memory shared too. Rewritten in the engine's file system before
 * anything loads them; answers how many were patched.
 */
export function shareSideModules(
  fs: EmscriptenFs,
  maximumPages: number,
  dir = '/pglite/lib/postgresql',
): number {
  let patched = 0;
  for (const name of fs.readdir(dir)) {
    if (!name.endsWith('.so')) {
      continue;
    }
    const file = `${dir}/${name}`;
    const result = withSharedMemory(fs.readFile(file), maximumPages);
    if (result) {
      fs.writeFile(file, result.bytes);
      patched++;
    }
  }
  return patched;
}
