/** Tests: a fresh, empty database on a throwaway PostgreSQL server (test-services.ts). */
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
