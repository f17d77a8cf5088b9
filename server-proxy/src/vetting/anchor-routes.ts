/**
 * The anchored decision record's routes (docs/vetting.md, "An anchored record"):
 * - `GET /api/local/decisions/public-key`: the public key (PEM) and its id;
 * - `GET /api/local/decisions/:id/receipt`: a signed receipt for one record;
 * - `POST /api/local/decisions/verify` `{receipts: [...]}`: the chain check, every record's
 *   signature, and each receipt or checkpoint someone kept, checked against the chain now.
 * `GET /api/local/decisions/verify` (routes.ts) gives the chain and signature check alone.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError, sendApiError } from '../http/api-error.ts';
import { parseInput } from '../http/parse-input.ts';
import type { SqlExecutor } from '../sql/engine.ts';
import { sqlChainReader } from './chain-reader.ts';
import { checkStatements, issueReceipt } from './receipts.ts';
import type { SigningKey } from './signing.ts';

/** The most statements one verify call checks (each costs a few indexed reads). */
const MAX_RECEIPTS = 1000;

export interface AnchorRouteDeps {
  sql: SqlExecutor;
  key: SigningKey;
  now: () => Date;
  /** the chain and signature check of GET …/verify */
  verify: () => Promise<object>;
  /** runs database work, answering 503 storage_unavailable as the other vetting routes do */
  unlessUnavailable: <T>(
    request: FastifyRequest,
    reply: FastifyReply,
    fn: () => Promise<T>,
  ) => Promise<T | FastifyReply>;
}

const verifyBody = z
  .object({
    receipts: z.array(z.unknown(), { error: 'receipts must be a list' }).max(MAX_RECEIPTS, {
      error: `At most ${MAX_RECEIPTS} receipts in one call`,
    }),
  })
  .strict();

const VERIFY_WORDING = {
  hint: 'Send {"receipts": [...]}, each receipt or checkpoint exactly as the proxy gave it.',
  unknown: { code: 'unknown_field', message: (key: string) => `Unknown field ${key}` },
  codes: { receipts: 'invalid_receipts' },
  rootCode: 'invalid_receipts',
};

export function registerAnchorRoutes(app: FastifyInstance, deps: AnchorRouteDeps): void {
  const { key, unlessUnavailable } = deps;
  const chain = sqlChainReader(deps.sql);

  app.get('/api/local/decisions/public-key', async () => ({
    algorithm: 'Ed25519',
    key_id: key.id,
    public_key: key.publicPem,
    source: key.source,
  }));

  app.get('/api/local/decisions/:id/receipt', async (request, reply) => {
    const raw = (request.params as { id: string }).id;
    const id = /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
    return unlessUnavailable(request, reply, async () => {
      const receipt = id === undefined ? undefined : await issueReceipt(key, chain, id, deps.now());
      if (receipt) return receipt;
      return sendApiError(
        reply,
        new ApiError(
          404,
          'unknown_decision',
          `No decision record ${raw.slice(0, 20)}`,
          'GET /api/local/decisions lists them.',
        ),
      );
    });
  });

  app.post('/api/local/decisions/verify', async (request, reply) => {
    const body = parseInput(verifyBody, request.body ?? {}, VERIFY_WORDING);
    if (!body.ok) return sendApiError(reply, body.error);
    return unlessUnavailable(request, reply, async () => {
      const chainCheck = await deps.verify();
      const receipts = await checkStatements(key, chain, body.value.receipts);
      const bad = receipts.filter((r) => !r.ok).length;
      return {
        ...chainCheck,
        ok: (chainCheck as { ok?: boolean }).ok === true && bad === 0,
        receipts,
        receipts_failed: bad,
      };
    });
  });
}
