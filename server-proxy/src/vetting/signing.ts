/**
 * Signed statements about the decision record (docs/vetting.md, "An anchored record"): a record's
 * signature, a receipt for one record and a checkpoint of the chain. Ed25519 through node:crypto,
 * with a key the database does not hold.
 *
 * A statement is signed as the exact bytes of its `payload`: canonical JSON (keys in a fixed order,
 * no spaces) of its fields. The payload travels with the signature, so anyone holding the public key
 * can check it offline (`openssl pkeyutl -verify -rawin`, docs/vetting.md) without our code, and
 * the fields are read back from the payload only after its signature holds.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The file a proxy without `DECISION_SIGNING_KEY_FILE` makes in its data dir at first start. */
export const GENERATED_KEY_FILE = 'decision-signing-key.pem';

export interface SigningKey {
  /** First 16 hex digits of SHA-256 over the public key's DER (SubjectPublicKeyInfo). */
  id: string;
  /** The public key, PEM (SPKI), as `GET /api/local/decisions/public-key` gives it. */
  publicPem: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Where it came from: the configured file, or the one made beside the database. */
  source: 'configured' | 'generated';
  file: string;
}

export class SigningKeyError extends Error {
  override name = 'SigningKeyError';
}

function keyIdOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex').slice(0, 16);
}

function fromPrivatePem(pem: string, file: string, source: SigningKey['source']): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (err) {
    throw new SigningKeyError(
      `${file} is not a private key in PEM form (${(err as Error).message}); make one with ` +
        '`openssl genpkey -algorithm ed25519 -out <file>`',
      { cause: err },
    );
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new SigningKeyError(
      `${file} holds a ${privateKey.asymmetricKeyType ?? 'unknown'} key; decisions are signed with ` +
        'Ed25519: `openssl genpkey -algorithm ed25519 -out <file>`',
    );
  }
  const publicKey = createPublicKey(privateKey);
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  return { id: keyIdOf(publicKey), publicPem, privateKey, publicKey, source, file };
}

/**
 * The signing key: `configuredFile` when given (it must exist and hold an Ed25519 private key),
 * else `<dataDir>/decision-signing-key.pem`, made (mode 0600) when missing. `warn` is told when the
 * generated key is used: a key beside the database protects against accidents, not against
 * whoever holds both.
 */
export function loadSigningKey(options: {
  configuredFile?: string | undefined;
  dataDir: string;
  warn?: (message: string) => void;
}): SigningKey {
  const { configuredFile, dataDir, warn } = options;
  if (configuredFile !== undefined) {
    let pem: string;
    try {
      pem = readFileSync(configuredFile, 'utf8');
    } catch (err) {
      throw new SigningKeyError(
        `DECISION_SIGNING_KEY_FILE ${configuredFile} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
        { cause: err },
      );
    }
    return fromPrivatePem(pem, configuredFile, 'configured');
  }
  const file = join(dataDir, GENERATED_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    // 'wx': never overwrite a key another process made a moment ago
    try {
      writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    chmodSync(file, 0o600);
  }
  const key = fromPrivatePem(readFileSync(file, 'utf8'), file, 'generated');
  warn?.(
    `decision records are signed with ${file}, a key kept beside the database: it shows accidents ` +
      'and edits by whoever has only the database, not by whoever holds both. Set ' +
      'DECISION_SIGNING_KEY_FILE to a key kept elsewhere (docs/vetting.md).',
  );
  return key;
}

/** A statement's fields: flat, strings and integers only, so their canonical JSON is unambiguous. */
export type StatementFields = Readonly<Record<string, string | number>>;

export interface Signed {
  /** The exact text that was signed (canonical JSON of the statement's fields). */
  payload: string;
  /** Ed25519 signature over the payload's UTF-8 bytes, base64. */
  signature: string;
  key_id: string;
}

/** Canonical JSON: keys sorted, no whitespace. */
export function canonicalPayload(fields: StatementFields): string {
  const sorted: Record<string, string | number> = {};
  for (const name of Object.keys(fields).sort()) {
    const value = fields[name];
    if (value === undefined) continue;
    if (typeof value === 'number' && !Number.isSafeInteger(value)) {
      throw new TypeError(`statement field ${name} must be an integer, not ${value}`);
    }
    sorted[name] = value;
  }
  return JSON.stringify(sorted);
}

export function signStatement(key: SigningKey, fields: StatementFields): Signed {
  const payload = canonicalPayload({ ...fields, key_id: key.id });
  const signature = sign(null, Buffer.from(payload, 'utf8'), key.privateKey).toString('base64');
  return { payload, signature, key_id: key.id };
}

export type StatementCheck =
  { ok: true; fields: Record<string, string | number> } | { ok: false; problem: string };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Check a signed statement with the public key: the signature over the payload's bytes, the key id
 * inside the payload, and that the payload is a flat JSON object. Never throws on bad input.
 */
export function verifyStatement(
  key: Pick<SigningKey, 'id' | 'publicKey'>,
  signed: { payload?: unknown; signature?: unknown },
): StatementCheck {
  const { payload, signature } = signed;
  if (typeof payload !== 'string' || typeof signature !== 'string' || !BASE64.test(signature)) {
    return { ok: false, problem: 'not a signed statement (payload and base64 signature needed)' };
  }
  const bytes = Buffer.from(signature, 'base64');
  let good = false;
  try {
    good = verify(null, Buffer.from(payload, 'utf8'), key.publicKey, bytes);
  } catch {
    good = false;
  }
  if (!good) return { ok: false, problem: 'the signature does not match the statement' };
  let fields: unknown;
  try {
    fields = JSON.parse(payload) as unknown;
  } catch {
    return { ok: false, problem: 'the signed statement is not JSON' };
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    return { ok: false, problem: 'the signed statement is not an object' };
  }
  const flat: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value !== 'string' && typeof value !== 'number') {
      return { ok: false, problem: `the signed statement's ${name} is not a string or number` };
    }
    flat[name] = value;
  }
  if (flat.key_id !== key.id) {
    return {
      ok: false,
      problem: `signed with key ${String(flat.key_id)}, not this proxy's ${key.id}`,
    };
  }
  return { ok: true, fields: flat };
}
