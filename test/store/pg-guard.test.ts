// The pg client guard: an `error` emitted on a client checked out of a pg pool with no listener
// of its own (pg-pool removes its listener while a client is out) is not thrown — the query in
// flight already failed with it — while every other `error` behaves as before.
import { EventEmitter } from 'node:events';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { guardPostgresClients, guardPrototype } from '../../src/store/pg-guard.js';
import { POSTGRES_URL, postgresAvailable } from '../support/services.js';

const postgresUp = await postgresAvailable();

class FakeClient extends EventEmitter {
  release: (() => void) | undefined;
}
guardPrototype(FakeClient.prototype as never);

describe('the pg client guard', () => {
  it('swallows an error only on a checked-out pool client that nobody listens to', () => {
    const out = new FakeClient();
    out.release = () => {};
    expect(out.emit('error', new Error('Connection terminated unexpectedly'))).toBe(false);
    const seen: unknown[] = [];
    out.on('error', (error) => seen.push(error));
    out.emit('error', new Error('heard'));
    expect(seen).toHaveLength(1);
    // Not from a pool: as before, an unheard error throws.
    const standalone = new FakeClient();
    expect(() => standalone.emit('error', new Error('alone'))).toThrow('alone');
    // Other events are untouched.
    let ended = false;
    out.on('end', () => {
      ended = true;
    });
    expect(out.emit('end')).toBe(true);
    expect(ended).toBe(true);
  });

  it.skipIf(!postgresUp)('is installed on the pg the application uses', async () => {
    expect(await guardPostgresClients()).toBe(true);
    const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
    try {
      const client = await pool.connect();
      expect(() => client.emit('error', new Error('dropped'))).not.toThrow();
      client.release(true);
      expect(() => new pg.Client().emit('error', new Error('alone'))).toThrow('alone');
    } finally {
      await pool.end();
    }
  });
});
