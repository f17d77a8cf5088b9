/**
 * The audit log (admins only): every call to the service through the proxy, sign-ins, and API token
 * changes, newest first, filtered by user or DOT (both in the URL). An API token's calls show the
 * token's name, marked as a token; so do the rows of making and revoking one.
 */
import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Badge } from '../../../components/Badge.tsx';
import { BUTTON, INPUT, LABEL, MUTED } from '../../../components/controls.ts';
import { DataTable, type DataTableColumn } from '../../../components/data-table/DataTable.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryState } from '../../../components/QueryState.tsx';
import { useCan, useSessionRead } from '../../../entities/session/role.ts';
import { RoleNote } from '../../../entities/session/RoleNote.tsx';
import { formatCount, formatDateTime } from '../../../lib/format.ts';
import { readTokenActor } from '../../../lib/token-actor.ts';
import { AUDIT_PAGE_SIZE, useAuditPage, type AuditItem } from '../api/audit-api.ts';

/** Who a row names: a person as they are, an API token by its name, marked. */
function Actor({ actor }: { actor: string }) {
  const token = readTokenActor(actor);
  if (token === undefined) return <span className="break-all">{actor}</span>;
  return (
    <span className="flex flex-wrap items-center gap-1.5">
      <span className="break-words">{token.name}</span>
      <Badge tone="info">API token</Badge>
    </span>
  );
}

/** What a row was about: the search or, for a token change, the token's name. */
function subject(item: AuditItem): string {
  if (item.searchKey === 'token' && item.searchValue !== null) {
    const token = readTokenActor(item.searchValue);
    if (token !== undefined) return `token ${token.name}`;
  }
  if (item.searchKey === null) return '';
  return `${item.searchKey} = ${item.searchValue ?? ''}`;
}

const COLUMNS: readonly DataTableColumn<AuditItem>[] = [
  {
    id: 'at',
    header: 'When',
    sortable: false,
    value: (item) => item.at,
    cell: (item) => <span className="whitespace-nowrap">{formatDateTime(item.at)}</span>,
  },
  {
    id: 'user',
    header: 'Who',
    rowHeader: true,
    sortable: false,
    value: (item) => item.user,
    cell: (item) => <Actor actor={item.user} />,
  },
  {
    id: 'request',
    header: 'Request',
    sortable: false,
    value: (item) => `${item.method} ${item.endpoint}`,
    cell: (item) => (
      <code className="text-xs whitespace-nowrap">
        {item.method} {item.endpoint}
      </code>
    ),
  },
  {
    id: 'subject',
    header: 'About',
    sortable: false,
    value: (item) => subject(item),
    cell: (item) => (
      <span className="break-words">
        {subject(item)}
        {item.dot ? (
          <span className="block text-xs text-neutral-600 dark:text-neutral-400">
            DOT {item.dot}
          </span>
        ) : null}
      </span>
    ),
  },
  { id: 'status', header: 'Status', sortable: false, align: 'end', value: (item) => item.status },
  {
    id: 'billed',
    header: 'Billed',
    sortable: false,
    value: (item) => (item.cacheHit ? 'cache' : item.billable ? 'yes' : 'no'),
    cell: (item) => (item.cacheHit ? 'From the cache' : item.billable ? 'Yes' : 'No'),
  },
];

export function AuditPage() {
  const can = useCan('read the audit log');
  const sessionRead = useSessionRead();
  const [params, setParams] = useSearchParams();
  const user = params.get('user') ?? undefined;
  const dot = params.get('dot') ?? undefined;
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const audit = useAuditPage({ user, dot, page }, can.allowed && sessionRead);

  const show = (next: { user?: string; dot?: string; page?: number }) => {
    const search = new URLSearchParams();
    if (next.user) search.set('user', next.user);
    if (next.dot) search.set('dot', next.dot);
    if (next.page !== undefined && next.page > 1) search.set('page', String(next.page));
    setParams(search);
  };

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every call to the data service through this dashboard, sign-ins, and API token changes: who, what, when. Other systems' calls show their API token's name."
      />
      {!can.allowed ? (
        <p className="rounded-lg border border-neutral-200 p-4 dark:border-neutral-700">
          <RoleNote id="audit-role" permission={can} />
        </p>
      ) : (
        <div className="flex flex-col gap-4">
          <AuditFilterForm
            // a new URL filter fills the fields again
            key={`${user ?? ''}|${dot ?? ''}`}
            user={user}
            dot={dot}
            onApply={(filter) => show(filter)}
          />
          <p className={MUTED}>
            API tokens are made and revoked on{' '}
            <Link to="/settings/tokens" className="underline underline-offset-2">
              Settings → API tokens
            </Link>
            .
          </p>
          <QueryState query={audit} what="the audit log">
            {(data) => (
              <>
                <p role="status" className={MUTED}>
                  {formatCount(data.total_count)} {data.total_count === 1 ? 'entry' : 'entries'}
                  {user ? ` by ${readTokenActor(user)?.name ?? user}` : ''}
                  {dot ? ` about DOT ${dot}` : ''}
                </p>
                <DataTable
                  caption="Audit log entries"
                  captionHidden
                  sortable={false}
                  columns={COLUMNS}
                  data={data.items}
                  getRowId={(item) => String(item.id)}
                  empty="Nothing recorded for this filter."
                  pager={{
                    page: data.page,
                    pageCount: Math.max(1, Math.ceil(data.total_count / AUDIT_PAGE_SIZE)),
                    onPageChange: (next) => show({ user, dot, page: next }),
                  }}
                />
              </>
            )}
          </QueryState>
        </div>
      )}
    </>
  );
}

function AuditFilterForm(props: {
  user: string | undefined;
  dot: string | undefined;
  onApply: (filter: { user?: string; dot?: string }) => void;
}) {
  const id = useId();
  const [user, setUser] = useState(props.user ?? '');
  const [dot, setDot] = useState(props.dot ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onApply({ user: user.trim(), dot: dot.trim() });
  };
  return (
    <form
      aria-label="Filter the audit log"
      onSubmit={submit}
      className="flex flex-wrap items-end gap-3"
    >
      <label className={LABEL} htmlFor={`${id}-user`}>
        User
        <input
          id={`${id}-user`}
          className={INPUT}
          value={user}
          autoComplete="off"
          onChange={(event) => setUser(event.target.value)}
        />
      </label>
      <label className={LABEL} htmlFor={`${id}-dot`}>
        DOT number
        <input
          id={`${id}-dot`}
          className={`${INPUT} w-32`}
          value={dot}
          inputMode="numeric"
          autoComplete="off"
          onChange={(event) => setDot(event.target.value)}
        />
      </label>
      <button type="submit" className={BUTTON}>
        Show
      </button>
    </form>
  );
}
