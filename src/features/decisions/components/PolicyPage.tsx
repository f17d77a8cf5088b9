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
import { formatDateTime, formatDollars } from '../../../lib/format.ts';
import {
  usePolicy,
  type CurrentPolicy,
  type PolicyVersion,
} from '../../../entities/vetting/policy.ts';
import { usePolicyVersions, useSavePolicy, type RuleChanges } from '../api/policy.ts';
import { useCan } from '../../../entities/session/role.ts';
import { RoleNote } from '../../../entities/session/RoleNote.tsx';
import {
  MAX_REVET_DAYS,
  type PolicySettings,
  type RuleId,
  type RuleSettings,
} from '../../../lib/vetting/index.ts';
import { PolicyPreview } from './PolicyPreview.tsx';
import { PolicyRuleCard, settingProblem } from './PolicyRuleCard.tsx';

const SETTING_KEYS = [
  'enabled',
  'outcome',
  'no_data',
  'threshold',
  'cargo_required',
  'cargo_refused',
  'hazmat',
] as const;

/** What differs between the saved settings and the edited ones, per rule. */
function changesOf(before: PolicySettings, after: PolicySettings): RuleChanges {
  const changes: RuleChanges = {};
  for (const id of Object.keys(after) as RuleId[]) {
    const diff: Partial<RuleSettings> = {};
    for (const key of SETTING_KEYS) {
      const [a, b] = [before[id][key], after[id][key]];
      const same = Array.isArray(a) || Array.isArray(b) ? String(a) === String(b) : a === b;
      if (!same) Object.assign(diff, { [key]: b });
    }
    if (Object.keys(diff).length > 0) changes[id] = diff;
  }
  return changes;
}

/** What a version's rule is set to beyond on/outcome/no data: threshold, classes, hazmat mode. */
function settingText(rule: CurrentPolicy['rules'][number], s: RuleSettings): string {
  const parts: string[] = [];
  if (s.threshold !== undefined) {
    parts.push(
      rule.threshold?.unit === 'USD'
        ? formatDollars(s.threshold)
        : `${s.threshold} ${rule.threshold?.unit ?? ''}`,
    );
  }
  const names = (ids: readonly string[] | undefined) =>
    (ids ?? []).map((id) => rule.cargo_classes?.find((c) => c.id === id)?.label ?? id).join(', ');
  if (s.cargo_required?.length) parts.push(`requires ${names(s.cargo_required)}`);
  if (s.cargo_refused?.length) parts.push(`refuses ${names(s.cargo_refused)}`);
  if (s.hazmat) parts.push(`hazmat ${s.hazmat}`);
  return parts.join('; ') || '—';
}

type SaveMutation = ReturnType<typeof useSavePolicy>;

/** Remounted for each version (`key`); `save` lives in the page so its outcome outlasts that. */
function PolicyEditor({ policy, save }: { policy: CurrentPolicy; save: SaveMutation }) {
  const [draft, setDraft] = useState<PolicySettings>(policy.settings);
  const [revetDays, setRevetDays] = useState<number | undefined>(policy.options.max_revet_days);
  const [note, setNote] = useState('');
  const canSave = useCan('save the policy');
  const canPreview = useCan('preview policy changes');
  const changes = changesOf(policy.settings, draft);
  const optionChanged = revetDays !== policy.options.max_revet_days;
  const changed = Object.keys(changes).length > 0 || optionChanged;
  const revetProblem =
    revetDays === undefined ||
    !Number.isInteger(revetDays) ||
    revetDays < MAX_REVET_DAYS.min ||
    revetDays > MAX_REVET_DAYS.max
      ? `Enter a whole number of days from ${MAX_REVET_DAYS.min} to ${MAX_REVET_DAYS.max}.`
      : undefined;
  const problems = [
    ...policy.rules.flatMap((rule) => {
      const problem = settingProblem(rule, draft[rule.id]);
      return problem ? [`${rule.label}: ${problem}`] : [];
    }),
    ...(revetProblem ? [`Longest re-vet period: ${revetProblem}`] : []),
  ];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed || problems.length > 0 || !canSave.allowed) return;
    save.mutate(
      {
        rules: changes,
        ...(optionChanged && revetDays !== undefined
          ? { options: { max_revet_days: revetDays } }
          : {}),
        ...(note.trim() ? { note: note.trim() } : {}),
      },
      { onSuccess: () => setNote('') },
    );
  };
  return (
    <form onSubmit={submit} aria-label="Edit the policy">
      <fieldset className="mb-4 rounded-md border border-neutral-300 p-3 dark:border-neutral-700">
        <legend className="px-1 font-semibold">Options</legend>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Longest re-vet period (days a decision&apos;s re-vet date may be ahead)
          <input
            type="number"
            className={`${INPUT} w-28`}
            min={MAX_REVET_DAYS.min}
            max={MAX_REVET_DAYS.max}
            step={1}
            aria-describedby="policy-revet-error"
            aria-invalid={revetProblem !== undefined || undefined}
            value={revetDays ?? ''}
            onChange={(event) =>
              setRevetDays(event.target.value === '' ? undefined : Number(event.target.value))
            }
          />
        </label>
        <p id="policy-revet-error" className="mt-1 text-sm text-red-800 dark:text-red-300">
          {revetProblem ?? ''}
        </p>
      </fieldset>
      <h2 id="policy-rules-heading" className="mb-2 font-semibold">
        Rules of version {policy.version} (the verdict is the worst outcome of any rule that is on)
      </h2>
      <ul className="space-y-2 text-sm" aria-labelledby="policy-rules-heading">
        {policy.rules.map((rule) => (
          <PolicyRuleCard
            key={rule.id}
            rule={rule}
            value={draft[rule.id]}
            onChange={(next) => setDraft((current) => ({ ...current, [rule.id]: next }))}
          />
        ))}
      </ul>
      <label className="mt-4 flex max-w-xl flex-col gap-1 text-sm font-medium">
        Why (kept with the version)
        <input
          className={INPUT}
          value={note}
          maxLength={4000}
          onChange={(event) => setNote(event.target.value)}
        />
      </label>
      <PolicyPreview
        rules={changes}
        options={
          optionChanged && revetDays !== undefined ? { max_revet_days: revetDays } : undefined
        }
        enabled={changed && problems.length === 0 && !save.isPending && canPreview.allowed}
      />
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button
          type="submit"
          className={PRIMARY_BUTTON}
          disabled={!changed || problems.length > 0 || save.isPending || !canSave.allowed}
          aria-describedby={canSave.allowed ? undefined : 'policy-save-role'}
        >
          {save.isPending ? 'Saving…' : 'Save as a new version'}
        </button>
        <RoleNote id="policy-save-role" permission={canSave} />
        <button
          type="button"
          className={BUTTON}
          disabled={!changed}
          onClick={() => {
            setDraft(policy.settings);
            setRevetDays(policy.options.max_revet_days);
          }}
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
      {changed && problems.length > 0 ? (
        <div role="alert" className="mt-2 text-sm text-red-800 dark:text-red-300">
          <p>Cannot save yet:</p>
          <ul className="list-disc pl-5">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      ) : null}
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
    <ScrollArea>
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
            <th scope="col">Setting</th>
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
                <td>{settingText(rule, s)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollArea>
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
