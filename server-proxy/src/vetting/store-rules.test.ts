/** The vetting store's chain, policy and re-vet decisions, with no database (store-rules.ts). */
import { describe, expect, it } from 'vitest';
import { defaultOptions, defaultSettings } from '../../../src/lib/vetting/index.ts';
import {
  GENESIS_HASH,
  chainHash,
  chainLink,
  defaultVersion,
  nextPolicyVersion,
  problemOf,
  revetDueItems,
  verdictOf,
  type DecisionContent,
  type DecisionRow,
} from './store-rules.ts';

const CONTENT: DecisionContent = {
  dot_number: '568253',
  decision: 'approved',
  note: null,
  conditions: null,
  expires_on: '2026-12-01',
  supersedes: null,
  user: { id: 'ann', name: 'Ann' },
  decided_at: '2026-11-20T10:00:00.000Z',
  verdict: { verdict: 'pass', rules: [] },
  policy_version: 2,
  profile: { identity: [{ name: 'legal_name', value: 'ACME HAULING LLC' }] },
};

/** The row an append writes for `content` after a record whose hash is `prev`. */
function storedRow(content: DecisionContent, prev: string, id = 1): DecisionRow {
  const { text, hash } = chainLink(prev, content);
  return {
    id,
    dot_number: content.dot_number,
    decision: content.decision,
    user: content.user.id,
    decided_at: content.decided_at,
    expires_on: content.expires_on,
    verdict: verdictOf(content) ?? '',
    policy_version: content.policy_version,
    content: text,
    prev_hash: prev,
    hash,
    signature: null,
    signing_key_id: null,
  };
}

describe('the decision chain', () => {
  it('links a record to the one before it by hashing its canonical content after that hash', () => {
    const link = chainLink(GENESIS_HASH, CONTENT);
    expect(link.text.startsWith('{"conditions":null,"decided_at":')).toBe(true);
    expect(link.hash).toBe(chainHash(GENESIS_HASH, link.text));
    expect(chainLink('f'.repeat(64), CONTENT).hash).not.toBe(link.hash);
    // a field left undefined is not part of the content: old records hash as they did
    expect(chainLink(GENESIS_HASH, { ...CONTENT, override_reason: undefined })).toEqual(link);
  });

  it('accepts a record as appended and names what breaks one', () => {
    const row = storedRow(CONTENT, GENESIS_HASH);
    expect(problemOf(row, GENESIS_HASH)).toBeUndefined();
    expect(problemOf(row, 'a'.repeat(64))).toBe(
      'its previous hash is not the hash of the record before it',
    );
    expect(problemOf({ ...row, content: row.content.replace('ann', 'bob') }, GENESIS_HASH)).toBe(
      'its hash does not match its content',
    );
    const spaced = JSON.stringify(JSON.parse(row.content), null, 1);
    expect(
      problemOf({ ...row, content: spaced, hash: chainHash(GENESIS_HASH, spaced) }, GENESIS_HASH),
    ).toBe('its content is not canonical JSON');
    for (const edit of [
      { decision: 'rejected' },
      { expires_on: '2027-06-01' },
      { user: 'bob' },
      { verdict: 'fail' },
      { policy_version: 3 },
    ]) {
      expect(problemOf({ ...row, ...edit }, GENESIS_HASH)).toBe(
        'its columns differ from its hashed content',
      );
    }
  });

  it('stores the verdict word only when the verdict has one', () => {
    expect(verdictOf(CONTENT)).toBe('pass');
    expect(verdictOf({ ...CONTENT, verdict: null })).toBeNull();
    expect(verdictOf({ ...CONTENT, verdict: { verdict: 3 } })).toBeNull();
  });
});

describe('policy versions', () => {
  const saved = {
    actor: { id: 'ann', name: 'Ann' },
    settings: defaultSettings(),
    note: 'tighter',
    at: new Date('2026-11-20T10:00:00Z'),
  };

  it('makes no version when nothing changed', () => {
    expect(nextPolicyVersion(defaultVersion(), saved)).toBeUndefined();
    expect(nextPolicyVersion(defaultVersion(), saved, defaultOptions())).toBeUndefined();
  });

  it('numbers the next version and says what changed, keeping the options when none are given', () => {
    const settings = defaultSettings();
    const [first] = Object.keys(settings) as (keyof typeof settings)[];
    if (first === undefined) throw new Error('no rule');
    settings[first] = { ...settings[first], enabled: !settings[first].enabled };
    const current = { ...defaultVersion(), version: 4, options: { max_revet_days: 90 } };
    const next = nextPolicyVersion(current, { ...saved, settings });
    expect(next).toMatchObject({
      version: 5,
      settings,
      options: { max_revet_days: 90 },
      created_by: 'Ann',
      created_at: '2026-11-20T10:00:00.000Z',
      note: 'tighter',
    });
    expect(next?.changes).toHaveLength(1);
    expect(nextPolicyVersion(current, saved, { max_revet_days: 30 })?.changes).toEqual([
      'Longest re-vet period: 90 → 30 days',
    ]);
  });
});

describe('the re-vet queue', () => {
  const record = { ...CONTENT, id: 7, hash: 'h', prev_hash: GENESIS_HASH };
  const asOf = new Date('2026-11-20T23:00:00Z');

  it('lists a current decision overdue or due within the window, with its legal name', () => {
    const columns = { dot_number: '568253', expires_on: '2026-11-19' };
    expect(revetDueItems(record, columns, asOf, 14)).toEqual([
      {
        id: 7,
        dot_number: '568253',
        legal_name: 'ACME HAULING LLC',
        decision: 'approved',
        decided_at: '2026-11-20T10:00:00.000Z',
        expires_on: '2026-11-19',
        due: 'overdue',
      },
    ]);
    const soon = revetDueItems(record, { ...columns, expires_on: '2026-12-04' }, asOf, 14);
    expect(soon.map((item) => item.due)).toEqual(['soon']);
  });

  it('leaves out dates past the window and records with no date; no name when none was kept', () => {
    const columns = { dot_number: '568253', expires_on: '2026-12-05' };
    expect(revetDueItems(record, columns, asOf, 14)).toEqual([]);
    expect(revetDueItems(record, { ...columns, expires_on: null }, asOf, 14)).toEqual([]);
    const nameless = { ...record, profile: null };
    const due = revetDueItems(nameless, { ...columns, expires_on: '2026-11-20' }, asOf, 0);
    expect(due).toMatchObject([{ legal_name: null, due: 'soon' }]);
  });
});
