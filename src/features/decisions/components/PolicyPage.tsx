/**
 * The team's vetting policy: each rule on or off, the outcome it yields, what it yields when the
 * profile lacks the data (never a failure) and its threshold. Saving stores a new numbered version
 * (who, when, what changed); earlier versions stay readable below. Verdicts use the new version at
 * once.
 */
import { useState, type FormEvent } from 'react';
import { BUTTON, INPUT, MUTED, PRIMARY_BUTTON } from '../../../components/controls.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryState } from '../../../components/QueryState.tsx';
import { ScrollArea } from '../../../components/ScrollHint.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import {
  usePolicy,
  usePolicyVersions,
  useSavePolicy,
  type CurrentPolicy,
  type PolicyVersion,
  type RuleChanges,
} from '../../../lib/vetting-api.ts';
import type { PolicySettings, RuleId, RuleSettings } from '../../../lib/vetting/index.ts';

const OUTCOME_LABEL = { pass: 'Pass', review: 'Review', fail: 'Fail' } as const;

/** What differs between the saved settings and the edited ones, per rule. */
function changesOf(before: PolicySettings, after: PolicySettings): RuleChanges {
  const changes: RuleChanges = {};
  for (const id of Object.keys(after) as RuleId[]) {
    const diff: Partial<RuleSettings> = {};
    for (const key of ['enabled', 'outcome', 'no_data', 'threshold'] as const) {
      if (before[id][key] !== after[id][key]) Object.assign(diff, { [key]: after[id][key] });
    }
    if (Object.keys(diff).length > 0) changes[id] = diff;
  }
  return changes;
}

function RuleRow({
  rule,
  value,
  onChange,
}: {
  rule: CurrentPolicy['rules'][number];
  value: RuleSettings;
  onChange: (next: RuleSettings) => void;
}) {
  const base = `rule-${rule.id}`;
  return (
    <tr
      className="border-b border-neutral-200 align-top dark:border-neutral-800"
      data-rule={rule.id}
    >
      <th scope="row" className="py-2 pr-3 text-left font-normal">
        <span id={`${base}-label`} className="font-semibold">
          {rule.label}
        </span>
        <p className={MUTED}>{rule.description}</p>
      </th>
      <td className="py-2 pr-3">
        <input
          type="checkbox"
          aria-label={`${rule.label}: on`}
          checked={value.enabled}
          onChange={(event) => onChange({ ...value, enabled: event.target.checked })}
        />
      </td>
      <td className="py-2 pr-3">
        <select
          className={INPUT}
          aria-label={`${rule.label}: outcome when it fires`}
          value={value.outcome}
          onChange={(event) =>
            onChange({ ...value, outcome: event.target.value as RuleSettings['outcome'] })
          }
        >
          {rule.outcomes.map((outcome) => (
            <option key={outcome} value={outcome}>
              {OUTCOME_LABEL[outcome]}
            </option>
          ))}
        </select>
      </td>
      <td className="py-2 pr-3">
        <select
          className={INPUT}
          aria-label={`${rule.label}: outcome when there is not enough data`}
          value={value.no_data}
          onChange={(event) =>
            onChange({ ...value, no_data: event.target.value as RuleSettings['no_data'] })
          }
        >
          <option value="pass">Pass</option>
          <option value="review">Review</option>
        </select>
      </td>
      <td className="py-2">
        {rule.threshold ? (
          <label className="flex items-center gap-1 text-sm">
            <input
              type="number"
              className={`${INPUT} w-24`}
              min={rule.threshold.min}
              max={rule.threshold.max}
              step="any"
              aria-label={`${rule.label}: ${rule.threshold.label} (${rule.threshold.unit})`}
              value={value.threshold ?? ''}
              onChange={(event) =>
                onChange({
                  ...value,
                  threshold: event.target.value === '' ? undefined : Number(event.target.value),
                })
              }
              required
            />
            <span aria-hidden="true">{rule.threshold.unit}</span>
          </label>
        ) : (
          <span className={MUTED}>—</span>
        )}
      </td>
    </tr>
  );
}

type SaveMutation = ReturnType<typeof useSavePolicy>;

/** Remounted for each version (`key`); `save` lives in the page so its outcome outlasts that. */
function PolicyEditor({ policy, save }: { policy: CurrentPolicy; save: SaveMutation }) {
  const [draft, setDraft] = useState<PolicySettings>(policy.settings);
  const [note, setNote] = useState('');
  const changes = changesOf(policy.settings, draft);
  const changed = Object.keys(changes).length > 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed) return;
    save.mutate(
      { rules: changes, ...(note.trim() ? { note: note.trim() } : {}) },
      { onSuccess: () => setNote('') },
    );
  };
  return (
    <form onSubmit={submit} aria-label="Edit the policy">
      <ScrollArea>
        <table className="w-full border-collapse text-sm">
          <caption className="mb-2 text-left font-semibold">
            Rules of version {policy.version} (the verdict is the worst outcome of any rule that is
            on)
          </caption>
          <thead>
            <tr className="border-b border-neutral-300 text-left dark:border-neutral-700">
              <th scope="col" className="py-2 pr-3">
                Rule
              </th>
              <th scope="col" className="py-2 pr-3">
                On
              </th>
              <th scope="col" className="py-2 pr-3">
                When it fires
              </th>
              <th scope="col" className="py-2 pr-3">
                Not enough data
              </th>
              <th scope="col" className="py-2">
                Threshold
              </th>
            </tr>
          </thead>
          <tbody>
            {policy.rules.map((rule) => (
              <RuleRow
                key={rule.id}
                rule={rule}
                value={draft[rule.id]}
                onChange={(next) => setDraft((current) => ({ ...current, [rule.id]: next }))}
              />
            ))}
          </tbody>
        </table>
      </ScrollArea>
      <label className="mt-4 flex max-w-xl flex-col gap-1 text-sm font-medium">
        Why (kept with the version)
        <input
          className={INPUT}
          value={note}
          maxLength={4000}
          onChange={(event) => setNote(event.target.value)}
        />
      </label>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button type="submit" className={PRIMARY_BUTTON} disabled={!changed || save.isPending}>
          {save.isPending ? 'Saving…' : 'Save as a new version'}
        </button>
        <button
          type="button"
          className={BUTTON}
          disabled={!changed}
          onClick={() => setDraft(policy.settings)}
        >
          Undo changes
        </button>
        <span role="status" className={MUTED}>
          {save.isSuccess
            ? `Saved as version ${save.data.version}.`
            : changed
              ? 'Unsaved changes.'
              : ''}
        </span>
      </div>
      {save.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-800 dark:text-red-300">
          Not saved: {save.error.message}
        </p>
      ) : null}
    </form>
  );
}

function VersionSettings({
  version,
  rules,
}: {
  version: PolicyVersion;
  rules: CurrentPolicy['rules'];
}) {
  return (
    <table className="mt-2 w-full border-collapse text-xs">
      <caption className="sr-only">Settings of version {version.version}</caption>
      <thead>
        <tr className="text-left">
          <th scope="col" className="pr-2">
            Rule
          </th>
          <th scope="col" className="pr-2">
            On
          </th>
          <th scope="col" className="pr-2">
            Fires as
          </th>
          <th scope="col" className="pr-2">
            Not enough data
          </th>
          <th scope="col">Threshold</th>
        </tr>
      </thead>
      <tbody>
        {rules.map((rule) => {
          const s = version.settings[rule.id];
          return (
            <tr key={rule.id}>
              <td className="pr-2">{rule.label}</td>
              <td className="pr-2">{s.enabled ? 'on' : 'off'}</td>
              <td className="pr-2">{s.outcome}</td>
              <td className="pr-2">{s.no_data}</td>
              <td>
                {s.threshold !== undefined ? `${s.threshold} ${rule.threshold?.unit ?? ''}` : '—'}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function VersionHistory({ rules }: { rules: CurrentPolicy['rules'] }) {
  const versions = usePolicyVersions();
  return (
    <QueryState query={versions} what="the versions">
      {(list) => <VersionList versions={list} rules={rules} />}
    </QueryState>
  );
}

function VersionList({
  versions,
  rules,
}: {
  versions: PolicyVersion[];
  rules: CurrentPolicy['rules'];
}) {
  return (
    <ol className="space-y-3" aria-label="Policy versions">
      {versions.map((version) => (
        <li
          key={version.version}
          className="rounded-md border border-neutral-300 p-3 dark:border-neutral-700"
        >
          <p className="font-semibold">
            Version {version.version} · {version.created_by}
            {version.created_at ? ` · ${formatDateTime(version.created_at)}` : ''}
          </p>
          {version.note ? <p className="text-sm">{version.note}</p> : null}
          {version.changes.length > 0 ? (
            <ul className="mt-1 list-disc pl-5 text-sm">
              {version.changes.map((change) => (
                <li key={change}>{change}</li>
              ))}
            </ul>
          ) : null}
          <details className="mt-1 text-sm">
            <summary className="cursor-pointer">All settings of version {version.version}</summary>
            <VersionSettings version={version} rules={rules} />
          </details>
        </li>
      ))}
    </ol>
  );
}

export function PolicyPage() {
  const policy = usePolicy();
  const save = useSavePolicy();
  return (
    <>
      <PageHeader
        title="Vetting policy"
        description="The rules every carrier's verdict is computed with. Each saved change is a new numbered version; decisions name the version they were made under."
      />
      <QueryState query={policy} what="the policy">
        {(current) => (
          <>
            <p className="mb-4 text-sm">
              Current version <strong>{current.version}</strong>
              {current.created_at
                ? `, saved by ${current.created_by} on ${formatDateTime(current.created_at)}`
                : ' (the default policy)'}
              . Lack of data is never a failure: a rule that lacks its data yields at most Review.
            </p>
            <PolicyEditor key={current.version} policy={current} save={save} />
            <h2 className="mt-8 mb-3 text-lg font-semibold">Versions</h2>
            <VersionHistory rules={current.rules} />
          </>
        )}
      </QueryState>
    </>
  );
}
