/**
 * Tests: a fresh, empty database on a throwaway PostgreSQL server (services.test-support.ts). The
 * engines a test runs on are opened by the one harness, engines.test-support.ts.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** Create a new database on the server at `serverUrl`; answers its URL. */
export async function freshDatabase(serverUrl: string): Promise<string> {
  const name = `t_${randomUUID().replaceAll('-', '')}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
