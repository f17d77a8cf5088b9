/**
 * The anchored decision record's routes (docs/vetting.md, "An anchored record"):
 * - `GET /api/local/decisions/public-key`: the public key (PEM) and its id;
 * - `GET /api/local/decisions/:id/receipt`: a signed receipt for one record;
 * - `POST /api/local/decisions/verify` `{receipts: [...]}`: the chain check, every record's
 *   signature, and each receipt or checkpoint someone kept, checked against the chain now.
 * `GET /api/local/decisions/verify` (routes.ts) gives the chain and signature check alone.
 */
import type { FastifyInstance } from 'fastify';
import {
  publicKeyRoute,
  receiptRoute,
  verifyReceiptsRoute,
  type ChainCheck,
} from '../../../src/lib/vetting/contract.ts';
import { ApiError } from '../http/api-error.ts';
import { contractRoute } from '../http/contract-route.ts';
import type { InputWording } from '../http/parse-input.ts';
import { refuse, type Unless } from './refuse.ts';
import type { SqlExecutor } from '../sql/engine.ts';
import { sqlChainReader } from './chain-reader.ts';
import { checkStatements, issueReceipt } from './receipts.ts';
import type { SigningKey } from './signing.ts';

export interface AnchorRouteDeps {
  sql: SqlExecutor;
  key: SigningKey;
  now: () => Date;
  /** the chain and signature check of GET …/verify */
  verify: () => Promise<ChainCheck>;
  /** runs database work, answering 503 storage_unavailable as the other vetting routes do */
  unlessUnavailable: Unless;
}

const VERIFY_WORDING: InputWording = {
  hint: 'Send {"receipts": [...]}, each receipt or checkpoint exactly as the proxy gave it.',
  unknown: { code: 'unknown_field', message: (key: string) => `Unknown field ${key}` },
  codes: { receipts: 'invalid_receipts' },
  rootCode: 'invalid_receipts',
};

export function registerAnchorRoutes(app: FastifyInstance, deps: AnchorRouteDeps): void {
  const { key, unlessUnavailable } = deps;
  const chain = sqlChainReader(deps.sql);

  contractRoute(app, publicKeyRoute, {}, async () => ({
    algorithm: 'Ed25519',
    key_id: key.id,
    public_key: key.publicPem,
    source: key.source,
  }));

  contractRoute(app, receiptRoute, {}, async (request, reply) => {
    const raw = request.params.id;
    const id = /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
    return unlessUnavailable(request, reply, async () => {
      const receipt = id === undefined ? undefined : await issueReceipt(key, chain, id, deps.now());
      if (receipt) return receipt;
      return refuse(
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

  const wording = { body: VERIFY_WORDING };
  contractRoute(app, verifyReceiptsRoute, { wording }, async (request, reply) =>
    unlessUnavailable(request, reply, async () => {
      const chainCheck = await deps.verify();
      const receipts = await checkStatements(key, chain, request.body.receipts);
      const bad = receipts.filter((r) => !r.ok).length;
      return {
        ...chainCheck,
        ok: chainCheck.ok && bad === 0,
        receipts,
        receipts_failed: bad,
      };
    }),
  );
}
