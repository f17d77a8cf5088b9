import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Badge, type BadgeTone } from '../../../components/Badge.tsx';
import { BUTTON, MUTED, PRIMARY_BUTTON } from '../../../components/controls.ts';
import { DataTable, type DataTableColumn } from '../../../components/data-table/DataTable.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { tokenActor } from '../../../lib/token-actor.ts';
import { useRevokeToken, type ApiToken } from '../api/tokens-api.ts';
import { TokenError } from './TokenError.tsx';

type State = 'active' | 'expired' | 'revoked';

function stateOf(token: ApiToken, now: number): State {
  if (token.revoked_at !== null) return 'revoked';
  return Date.parse(token.expires_at) <= now ? 'expired' : 'active';
}

const STATE: Record<State, { label: string; tone: BadgeTone }> = {
  active: { label: 'Active', tone: 'good' },
  expired: { label: 'Expired', tone: 'neutral' },
  revoked: { label: 'Revoked', tone: 'bad' },
};

const ROLE_LABEL: Record<ApiToken['role'], string> = { viewer: 'Viewer', analyst: 'Analyst' };

/** The tokens, newest first, each with its state and, while it is live, Revoke (after a confirm). */
export function TokenList({ tokens }: { tokens: readonly ApiToken[] }) {
  const revoke = useRevokeToken();
  const [confirming, setConfirming] = useState<ApiToken | undefined>();
  const [done, setDone] = useState('');
  // when the list was shown: a token that expires while it is open shows so on the next visit
  const [now] = useState(() => Date.now());

  const columns: readonly DataTableColumn<ApiToken>[] = [
    { id: 'name', header: 'Name', rowHeader: true, className: 'break-words', value: (t) => t.name },
    { id: 'role', header: 'Role', value: (t) => ROLE_LABEL[t.role] },
    {
      id: 'prefix',
      header: 'Token',
      sortable: false,
      value: (t) => t.prefix,
      cell: (t) => <code className="text-xs whitespace-nowrap">{t.prefix}</code>,
    },
    {
      id: 'created',
      header: 'Created',
      value: (t) => t.created_at,
      cell: (t) => (
        <span className="whitespace-nowrap">
          {formatDateTime(t.created_at)}
          <span className="block text-xs text-neutral-600 dark:text-neutral-400">
            by {t.created_by}
          </span>
        </span>
      ),
    },
    {
      id: 'expires',
      header: 'Expires',
      value: (t) => t.expires_at,
      cell: (t) => <span className="whitespace-nowrap">{formatDateTime(t.expires_at)}</span>,
    },
    {
      id: 'used',
      header: 'Last used',
      value: (t) => t.last_used_at ?? '',
      cell: (t) => (
        <span className="whitespace-nowrap">
          {t.last_used_at === null ? 'Never' : formatDateTime(t.last_used_at)}
        </span>
      ),
    },
    {
      id: 'state',
      header: 'State',
      value: (t) => stateOf(t, now),
      cell: (t) => {
        const state = stateOf(t, now);
        return (
          <span className="whitespace-nowrap">
            <Badge tone={STATE[state].tone}>{STATE[state].label}</Badge>
            {t.revoked_at !== null ? (
              <span className="block text-xs text-neutral-600 dark:text-neutral-400">
                {formatDateTime(t.revoked_at)} by {t.revoked_by ?? '—'}
              </span>
            ) : null}
          </span>
        );
      },
    },
    {
      id: 'actions',
      header: 'Actions',
      sortable: false,
      value: () => '',
      cell: (t) => (
        <span className="flex items-center gap-3 whitespace-nowrap">
          <Link
            to={`/audit?${new URLSearchParams({ user: tokenActor(t.id, t.name) }).toString()}`}
            aria-label={`Calls of ${t.name} in the audit log`}
            className="text-sm underline underline-offset-2"
          >
            Calls
          </Link>
          {stateOf(t, now) === 'active' ? (
            <button
              type="button"
              className={BUTTON}
              aria-label={`Revoke ${t.name}`}
              onClick={() => {
                revoke.reset();
                setDone('');
                setConfirming(t);
              }}
            >
              Revoke
            </button>
          ) : null}
        </span>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-3">
      {confirming ? (
        <RevokeConfirm
          token={confirming}
          busy={revoke.isPending}
          onCancel={() => setConfirming(undefined)}
          onConfirm={() =>
            revoke.mutate(confirming.id, {
              onSuccess: (token) => {
                setConfirming(undefined);
                setDone(`Revoked ${token.name}: requests with it are refused from now on.`);
              },
            })
          }
        />
      ) : null}
      {revoke.isError ? <TokenError error={revoke.error} what="the revoke" /> : null}
      <p role="status" className="text-sm">
        {done}
      </p>
      {tokens.length === 0 ? (
        <p className={MUTED}>No tokens yet.</p>
      ) : (
        <DataTable
          caption="API tokens"
          captionHidden
          columns={columns}
          data={[...tokens]}
          getRowId={(t) => String(t.id)}
        />
      )}
    </div>
  );
}

/** Asks before revoking: the systems using the token are refused at once, and it cannot be undone. */
function RevokeConfirm(props: {
  token: ApiToken;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-detail`}
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-neutral-900 dark:border-amber-700 dark:bg-amber-950 dark:text-neutral-100"
    >
      <h3 id={`${id}-title`} ref={heading} tabIndex={-1} className="font-semibold">
        Revoke {props.token.name}?
      </h3>
      <p id={`${id}-detail`} className="mt-1 text-sm">
        Every request with this token is refused from now on (401), on every server. It cannot be
        undone: the system that uses it needs a new token.
      </p>
      <div className="mt-3 flex gap-2">
        <button
          type="button"
          className={PRIMARY_BUTTON}
          disabled={props.busy}
          onClick={props.onConfirm}
        >
          {props.busy ? 'Revoking…' : 'Revoke token'}
        </button>
        <button type="button" className={BUTTON} onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
