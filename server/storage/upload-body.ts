import { StorageError } from './errors.ts';

export interface UploadBody {
  bytes: Uint8Array;
  contentType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
}

/**
 * Reads an upload as storage-js sends it: multipart form data (a Blob or File: the file part plus
 * `cacheControl` and `metadata` fields) or the raw bytes (ArrayBuffer, Buffer, string) with headers.
 */
export async function readUploadBody(req: Request): Promise<UploadBody> {
  const type = req.headers.get('content-type') ?? '';
  if (type.toLowerCase().startsWith('multipart/form-data')) {
    const form = await req.formData().catch(() => {
      throw new StorageError(400, 'InvalidRequest', 'Malformed multipart body');
    });
    const file = [...form.values()].find((v) => typeof v !== 'string') as Blob | undefined;
    if (!file) {
      throw new StorageError(400, 'InvalidRequest', 'No file in the multipart body');
    }
    const cache = form.get('cacheControl');
    const metadata = form.get('metadata');
    return {
      bytes: new Uint8Array(await file.arrayBuffer()),
      contentType: file.type || 'application/octet-stream',
      cacheControl: `max-age=${typeof cache === 'string' && /^\d+$/.test(cache) ? cache : '3600'}`,
      userMetadata: typeof metadata === 'string' ? parseMetadata(metadata) : null,
    };
  }
  const encodedMeta = req.headers.get('x-metadata');
  return {
    bytes: new Uint8Array(await req.arrayBuffer()),
    contentType: type || 'application/octet-stream',
    cacheControl: req.headers.get('cache-control') ?? 'max-age=3600',
    userMetadata: encodedMeta ? parseMetadata(Buffer.from(encodedMeta, 'base64').toString('utf8')) : null,
  };
}

function parseMetadata(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // refused below
  }
  throw new StorageError(400, 'InvalidRequest', 'metadata must be a JSON object');
}
