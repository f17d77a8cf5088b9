/**
 * Settings → API tokens (admins only; docs/api.md): make a token for another system (a name, a
 * role, an expiry of 1 to 365 days), see it once to copy it, list the tokens with their last use,
 * revoke one. Everyone else sees why they cannot.
 */
import { useState } from 'react';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryState } from '../../../components/QueryState.tsx';
import { MUTED } from '../../../components/controls.ts';
import { useCan, useSessionRead } from '../../../entities/session/role.ts';
import { RoleNote } from '../../../entities/session/RoleNote.tsx';
import { useTokens, type MadeToken } from '../api/tokens-api.ts';
import { NewTokenForm } from './NewTokenForm.tsx';
import { NewTokenSecret } from './NewTokenSecret.tsx';
import { TokenList } from './TokenList.tsx';

export function TokensPage() {
  const can = useCan('manage API tokens');
  const sessionRead = useSessionRead();
  const tokens = useTokens(can.allowed && sessionRead);
  const [made, setMade] = useState<MadeToken | undefined>();
  return (
    <>
      <PageHeader
        title="API tokens"
        description="Let another system — a TMS, an ERP — use this dashboard's API: check a carrier when a load is tendered, record a decision, run a bulk job. Each token has a role and an expiry; revoke it when the system no longer needs it."
      />
      {!can.allowed ? (
        <p className="rounded-lg border border-neutral-200 p-4 dark:border-neutral-700">
          <RoleNote id="tokens-role" permission={can} />
        </p>
      ) : (
        <div className="flex flex-col gap-10">
          {made ? (
            <NewTokenSecret made={made} onDone={() => setMade(undefined)} />
          ) : (
            <NewTokenForm onMade={setMade} />
          )}
          <section aria-labelledby="tokens-list" className="flex flex-col gap-3">
            <h2
              id="tokens-list"
              className="text-lg font-semibold text-neutral-950 dark:text-neutral-50"
            >
              Tokens
            </h2>
            <p className={MUTED}>
              A request with a token sends <code>Authorization: Bearer cdk_…</code>; the list shows
              only each token's first characters.
            </p>
            <QueryState query={tokens} what="the API tokens">
              {(list) => <TokenList tokens={list} />}
            </QueryState>
          </section>
        </div>
      )}
    </>
  );
}
