import { useId, useState, type FormEvent } from 'react';
import { BUTTON, INPUT, LABEL, MUTED, PRIMARY_BUTTON } from '../../../components/controls.ts';
import { formatDate } from '../../../lib/format.ts';
import { useCreateToken, type MadeToken, type NewTokenInput } from '../api/tokens-api.ts';
import { TokenError } from './TokenError.tsx';

const MAX_NAME = 80;
const MAX_DAYS = 365;
const PRESETS = [
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
] as const;

type Role = NewTokenInput['role'];

const ROLES: readonly { role: Role; label: string; detail: string }[] = [
  {
    role: 'viewer',
    label: 'Viewer',
    detail: 'reads: verdicts, profiles, decisions, bulk jobs',
  },
  {
    role: 'analyst',
    label: 'Analyst',
    detail: 'also records decisions, triages changes, runs bulk jobs',
  },
];

/** What is wrong with the form, field by field (the proxy checks the same and says so too). */
function problemsOf(name: string, days: string): { name?: string; days?: string } {
  const problems: { name?: string; days?: string } = {};
  const trimmed = name.trim();
  if (trimmed === '') problems.name = 'Name the system that will use the token, e.g. McLeod TMS.';
  else if (trimmed.length > MAX_NAME) problems.name = `At most ${MAX_NAME} characters.`;
  const count = Number(days);
  if (!/^\d+$/.test(days.trim()) || count < 1 || count > MAX_DAYS) {
    problems.days = `A whole number of days from 1 to ${MAX_DAYS} (a year at most).`;
  }
  return problems;
}

function expiryDate(days: string): string | undefined {
  const count = Number(days);
  if (!Number.isInteger(count) || count < 1 || count > MAX_DAYS) return undefined;
  return new Date(Date.now() + count * 86_400_000).toISOString();
}

/** The form that makes a token: name, role, expiry (presets or a number of days). */
export function NewTokenForm({ onMade }: { onMade: (made: MadeToken) => void }) {
  const id = useId();
  const create = useCreateToken();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [days, setDays] = useState('90');
  const [tried, setTried] = useState(false);
  const problems = problemsOf(name, days);
  const shown = tried ? problems : {};
  const expires = expiryDate(days);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (problems.name !== undefined || problems.days !== undefined) return;
    create.mutate(
      { name: name.trim(), role, expires_in_days: Number(days) },
      {
        onSuccess: (made) => {
          setName('');
          setTried(false);
          onMade(made);
        },
      },
    );
  };

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3">
      <h2
        id={`${id}-title`}
        className="text-lg font-semibold text-neutral-950 dark:text-neutral-50"
      >
        New token
      </h2>
      <form noValidate onSubmit={submit} className="flex max-w-xl flex-col gap-4">
        <label className={LABEL}>
          Name
          <input
            className={INPUT}
            value={name}
            maxLength={MAX_NAME}
            autoComplete="off"
            aria-invalid={shown.name !== undefined}
            aria-describedby={`${id}-name-help`}
            onChange={(event) => setName(event.target.value)}
          />
          <span
            id={`${id}-name-help`}
            className={
              shown.name
                ? 'text-sm font-normal text-red-700 dark:text-red-300'
                : `${MUTED} font-normal`
            }
          >
            {shown.name ?? 'The system that will use it; shown as the actor in the audit log.'}
          </span>
        </label>

        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-neutral-700 dark:text-neutral-300">
            Role
          </legend>
          {ROLES.map((option) => (
            <label key={option.role} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name={`${id}-role`}
                value={option.role}
                checked={role === option.role}
                onChange={() => setRole(option.role)}
                className="mt-1"
              />
              <span>
                <span className="font-medium">{option.label}</span>
                <span className="text-neutral-600 dark:text-neutral-400"> — {option.detail}</span>
              </span>
            </label>
          ))}
        </fieldset>

        <div className="flex flex-col gap-2">
          <label className={LABEL}>
            Expires after (days)
            <input
              className={`${INPUT} w-28`}
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_DAYS}
              value={days}
              aria-invalid={shown.days !== undefined}
              aria-describedby={`${id}-days-help`}
              onChange={(event) => setDays(event.target.value)}
            />
          </label>
          <div role="group" aria-label="Expiry presets" className="flex flex-wrap gap-2">
            {PRESETS.map((preset) => (
              <button
                key={preset.days}
                type="button"
                className={BUTTON}
                aria-pressed={days === String(preset.days)}
                onClick={() => setDays(String(preset.days))}
              >
                {preset.label}
              </button>
            ))}
          </div>
          <span
            id={`${id}-days-help`}
            className={shown.days ? 'text-sm text-red-700 dark:text-red-300' : MUTED}
          >
            {shown.days ??
              (expires ? `Expires on ${formatDate(expires)}.` : `From 1 to ${MAX_DAYS} days.`)}
          </span>
        </div>

        <div>
          <button type="submit" className={PRIMARY_BUTTON} disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create token'}
          </button>
        </div>
        {create.isError ? <TokenError error={create.error} what="the new token" /> : null}
      </form>
    </section>
  );
}
