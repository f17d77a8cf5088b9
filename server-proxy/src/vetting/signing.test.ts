import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers.test-support.ts';
import {
  GENERATED_KEY_FILE,
  SigningKeyError,
  canonicalPayload,
  loadSigningKey,
  signStatement,
  verifyStatement,
} from './signing.ts';

function generated() {
  const dir = makeTempDir();
  const warnings: string[] = [];
  const key = loadSigningKey({ dataDir: dir, warn: (m) => warnings.push(m) });
  return { dir, key, warnings };
}

describe('decision signing key', () => {
  it('makes a key beside the database at first start (owner-only), warns, and keeps it', () => {
    const { dir, key, warnings } = generated();
    const file = join(dir, GENERATED_KEY_FILE);
    expect(key.source).toBe('generated');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(warnings.join(' ')).toMatch(/beside the database.*DECISION_SIGNING_KEY_FILE/s);
    const again = loadSigningKey({ dataDir: dir });
    expect(again.id).toBe(key.id);
    expect(again.publicPem).toBe(key.publicPem);
    expect(key.id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('uses the configured file and refuses a missing file or a key that is not Ed25519', () => {
    const dir = makeTempDir();
    const file = join(dir, 'mine.pem');
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const key = loadSigningKey({ configuredFile: file, dataDir: dir });
    expect(key.source).toBe('configured');
    expect(() => loadSigningKey({ configuredFile: join(dir, 'absent.pem'), dataDir: dir })).toThrow(
      /cannot be read \(ENOENT\)/,
    );
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    writeFileSync(file, rsa.export({ type: 'pkcs8', format: 'pem' }));
    expect(() => loadSigningKey({ configuredFile: file, dataDir: dir })).toThrow(SigningKeyError);
    writeFileSync(file, 'not a key');
    expect(() => loadSigningKey({ configuredFile: file, dataDir: dir })).toThrow(
      /not a private key/,
    );
  });
});

describe('signed statements', () => {
  it('writes canonical JSON whatever the order of the fields', () => {
    expect(canonicalPayload({ b: 2, a: 'x' })).toBe('{"a":"x","b":2}');
    expect(() => canonicalPayload({ a: 1.5 })).toThrow(/integer/);
  });

  it('verifies what it signed and nothing else', () => {
    const { key } = generated();
    const signed = signStatement(key, {
      type: 'receipt',
      record_id: 7,
      record_hash: 'ab'.repeat(32),
    });
    const check = verifyStatement(key, signed);
    expect(check).toEqual({
      ok: true,
      fields: { type: 'receipt', record_id: 7, record_hash: 'ab'.repeat(32), key_id: key.id },
    });
    const edited = { ...signed, payload: signed.payload.replace('"record_id":7', '"record_id":8') };
    expect(verifyStatement(key, edited)).toEqual({
      ok: false,
      problem: 'the signature does not match the statement',
    });
    const other = generated().key;
    expect(verifyStatement(other, signed).ok).toBe(false);
    // signed by another key that names itself: the key id inside does not match this proxy's
    const forged = signStatement(other, { type: 'receipt' });
    expect(verifyStatement(key, forged).ok).toBe(false);
    expect(verifyStatement(key, { payload: 1, signature: '!!' })).toMatchObject({ ok: false });
    expect(verifyStatement(key, {})).toMatchObject({ ok: false });
  });

  it('can be checked offline with openssl and the public key alone', () => {
    const { dir, key } = generated();
    const signed = signStatement(key, {
      type: 'checkpoint',
      chain_length: 3,
      head_hash: 'cd'.repeat(32),
    });
    writeFileSync(join(dir, 'public.pem'), key.publicPem);
    writeFileSync(join(dir, 'statement.json'), signed.payload);
    writeFileSync(join(dir, 'statement.sig'), Buffer.from(signed.signature, 'base64'));
    const run = (payloadFile: string) => {
      try {
        return execFileSync(
          'openssl',
          [
            'pkeyutl',
            '-verify',
            '-pubin',
            '-inkey',
            'public.pem',
            '-rawin',
            '-in',
            payloadFile,
            '-sigfile',
            'statement.sig',
          ],
          { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
        );
      } catch (err) {
        return String((err as { stdout?: string }).stdout ?? '') + 'FAILED';
      }
    };
    expect(run('statement.json')).toMatch(/Signature Verified Successfully/);
    writeFileSync(
      join(dir, 'edited.json'),
      signed.payload.replace('"chain_length":3', '"chain_length":2'),
    );
    expect(run('edited.json')).toMatch(/FAILED/);
  });
});
