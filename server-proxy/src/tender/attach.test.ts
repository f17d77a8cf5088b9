import { beforeEach, expect, it } from 'vitest';
import { forEachEngine } from '../sql/engines.test-support.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { attachTenderCheck, checkAttachments, tenderDigest } from './attach.ts';
import { createTenderCheckStore, type NewTenderCheck, type TenderCheckStore } from './store.ts';

const AT = new Date('2026-11-02T09:00:00.000Z');

function newCheck(dot = '568253'): NewTenderCheck {
  return {
    answer: 'go',
    reasons: [
      {
        rule: 'phone_match',
        outcome: 'pass',
        text: '(562) 602-7220 is the carrier’s registered phone.',
        evidence: [
          { field: 'input.phone', value: '5626027220', source: 'input', date: null, link: null },
        ],
      },
    ],
    identity: { outcome: 'pass', registered: null, call_back: null, searches: [] },
    load_fit: { outcome: 'pass', load_given: false },
    verdict: { verdict: 'pass', policy_version: 1, reasons: [], decision: null },
    pending: [],
    cost_usd: 0,
    carrier: { dot_number: dot, legal_name: 'HANSEN & ADKINS AUTO TRANSPORT INC', docket: null },
    snapshot_date: '2026-11-16',
    checked_at: AT.toISOString(),
    user: { id: 'ana', name: 'Ana' },
    input: {
      dot_number: dot,
      docket_number: null,
      phone: '5626027220',
      email: null,
      contact_name: 'Doug',
      load: null,
      max_cost_usd: 0,
      redacted: false,
    },
    searches_run: [],
  };
}

/** A decision record carrying `attached` (inserted as the vetting store writes one). */
async function decisionWith(sql: SqlEngine, attached: unknown, checkId: number, n: number) {
  await sql.run(
    `INSERT INTO vetting_decision (dot_number, decision, "user", decided_at, verdict,
       policy_version, content, prev_hash, hash, tender_check_id)
     VALUES ('568253', 'approved', 'ana', ?, 'pass', 1, ?, ?, ?, ?)`,
    [AT.toISOString(), JSON.stringify({ tender_check: attached }), `p${n}`, `h${n}`, checkId],
  );
}

forEachEngine('tender check attached to a decision', (engine) => {
  let sql: SqlEngine;
  let store: TenderCheckStore;

  beforeEach(() => {
    sql = engine.sql;
    store = createTenderCheckStore(sql);
  });

  it('attaches a check on the same carrier, with its digest; refuses another carrier’s or none', async () => {
    const check = await store.insert(newCheck());
    const attached = await attachTenderCheck(sql, check.id, '568253');
    expect(attached).toEqual({
      id: check.id,
      answer: 'go',
      identity: 'pass',
      checked_at: AT.toISOString(),
      checked_by: 'Ana',
      snapshot_date: '2026-11-16',
      digest: tenderDigest(check),
    });
    await expect(attachTenderCheck(sql, check.id, '2214589')).rejects.toMatchObject({
      status: 400,
      code: 'invalid_tender_check',
    });
    await expect(attachTenderCheck(sql, check.id + 1, '568253')).rejects.toMatchObject({
      code: 'invalid_tender_check',
    });
  });

  it('keeps its digest when retention blanks the people, and names a check changed or gone', async () => {
    const kept = await store.insert(newCheck());
    const changed = await store.insert(newCheck());
    const gone = await store.insert(newCheck());
    await decisionWith(sql, await attachTenderCheck(sql, kept.id, '568253'), kept.id, 1);
    await decisionWith(sql, await attachTenderCheck(sql, changed.id, '568253'), changed.id, 2);
    await decisionWith(sql, await attachTenderCheck(sql, gone.id, '568253'), gone.id, 3);
    await store.redactOlderThan(
      new Date('2026-12-01T00:00:00.000Z'),
      new Date('2026-12-01T00:00:00.000Z'),
    );
    expect((await store.get(kept.id))?.input.phone).toBeNull();
    await sql.run(`UPDATE tender_check SET answer = 'do_not_tender' WHERE id = ?`, [changed.id]);
    await sql.run('DELETE FROM tender_check WHERE id = ?', [gone.id]);
    expect(await checkAttachments(sql)).toEqual([
      { decision_id: expect.any(Number), tender_check_id: changed.id, problem: 'changed' },
      { decision_id: expect.any(Number), tender_check_id: gone.id, problem: 'missing' },
    ]);
  });
});
