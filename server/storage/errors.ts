import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isPgError } from '../db/database.ts';

/** An error answered in Supabase Storage's shape: `{statusCode, code, error, message}`. */
export class StorageError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

export const notFound = (what = 'Object') =>
  new StorageError(404, what === 'Object' ? 'NoSuchKey' : 'NoSuchBucket', `${what} not found`);
export const invalidKey = (message = 'Invalid key') => new StorageError(400, 'InvalidKey', message);

/** Maps what a storage operation threw to the response storage-js reads (`message`, `statusCode`). */
export function storageErrorResponse(c: Context, e: unknown): Response {
  const err = toStorageError(e);
  return c.json(
    { statusCode: String(err.status), code: err.code, error: err.code, message: err.message },
    err.status,
  );
}

function toStorageError(e: unknown): StorageError {
  if (e instanceof StorageError) {
    return e;
  }
  if (isPgError(e)) {
    // Row-level security refused the row: the caller may not do this to this object.
    if (e.code === '42501') {
      return new StorageError(403, 'Unauthorized', 'new row violates row-level security policy');
    }
    // A foreign key or a malformed value from the request: bad input, never a server fault.
    if (e.code === '23503') {
      return new StorageError(404, 'NoSuchBucket', 'Bucket not found');
    }
    if (e.code === '22P02' || e.code === '22021') {
      return new StorageError(400, 'InvalidRequest', 'Invalid input');
    }
    if (e.code === '23505') {
      return new StorageError(409, 'Duplicate', 'The resource already exists');
    }
  }
  console.error('storage error:', e);
  return new StorageError(500, 'InternalError', 'Internal Server Error');
}
