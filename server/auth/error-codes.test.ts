import { describe, expect, it } from 'vitest';
import { postgresState } from '../rest/error-codes.ts';
import { RestError } from '../rest/errors.ts';
import { AUTH_ERROR_STATUSES } from './error-codes.ts';
import { authError } from './errors.ts';

describe('error catalogues', () => {
  it('types each auth code with the statuses GoTrue gives it (checked by tsc)', () => {
    expect(authError(422, 'weak_password', 'x').status).toBe(422);
    // @ts-expect-error -- GoTrue never answers weak_password with 400.
    authError(400, 'weak_password', 'x');
    // @ts-expect-error -- no such code.
    authError(400, 'validation_faild', 'x');
    for (const statuses of Object.values(AUTH_ERROR_STATUSES)) {
      expect(statuses.length).toBeGreaterThan(0);
    }
  });

  it('derives a REST error status from its code: PostgREST codes and SQLSTATEs', () => {
    expect(new RestError('PGRST116', 'x').status).toBe(406);
    expect(new RestError('PGRST203', 'x').status).toBe(300);
    expect(new RestError('42703', 'x').status).toBe(400);
    expect(new RestError(postgresState('42883'), 'x').status).toBe(404);
    expect(new RestError(postgresState('23505'), 'x').status).toBe(409);
    // @ts-expect-error -- a SQLSTATE the layer does not raise itself must come from Postgres.
    void new RestError('22P02', 'x');
    // @ts-expect-error -- no such PostgREST code.
    void new RestError('PGRST999x', 'x');
  });
});
