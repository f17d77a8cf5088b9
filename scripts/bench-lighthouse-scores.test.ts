import { describe, expect, it } from 'vitest';
import {
  auditDetail,
  categoryScore,
  failingAudits,
  mergeFailures,
  scoreEntries,
  type LhrLike,
} from './bench-lighthouse-scores.ts';

const lhr: LhrLike = {
  categories: {
    'best-practices': {
      score: 0.96,
      auditRefs: [{ id: 'inspector-issues' }, { id: 'errors-in-console' }, { id: 'notes' }],
    },
    seo: { score: null, auditRefs: [{ id: 'is-crawlable' }] },
  },
  audits: {
    'inspector-issues': {
      id: 'inspector-issues',
      title: 'Issues were logged',
      score: 0,
      scoreDisplayMode: 'binary',
      details: {
        headings: [{ key: 'issueType' }],
        items: [{ issueType: 'Content security policy' }, { issueType: 'Cookie' }],
      },
    },
    'errors-in-console': {
      id: 'errors-in-console',
      title: 'No errors',
      score: 1,
      scoreDisplayMode: 'binary',
    },
    notes: { id: 'notes', title: 'Informative', score: 0, scoreDisplayMode: 'informative' },
    'is-crawlable': {
      id: 'is-crawlable',
      title: 'Page is blocked from indexing',
      score: 0,
      scoreDisplayMode: 'binary',
      details: {
        headings: [{ key: 'source' }],
        items: [{ source: { type: 'source-location', url: 'http://127.0.0.1/robots.txt' } }],
      },
    },
  },
};

describe('categoryScore', () => {
  it('is the 0–100 score, or null for a category that did not run or has no score', () => {
    expect(categoryScore(lhr, 'best-practices')).toBe(96);
    expect(categoryScore(lhr, 'seo')).toBeNull();
    expect(categoryScore(lhr, 'performance')).toBeNull();
  });
});

describe('failingAudits', () => {
  it('lists the scored audits under a full score with what their table names', () => {
    expect(failingAudits(lhr, 'best-practices')).toEqual([
      {
        id: 'inspector-issues',
        title: 'Issues were logged',
        displayValue: null,
        detail: 'Content security policy; Cookie',
        score: 0,
      },
    ]);
    expect(failingAudits(lhr, 'seo')[0]?.detail).toBe('http://127.0.0.1/robots.txt');
  });
});

describe('auditDetail', () => {
  it('shows three rows and counts the rest', () => {
    const items = ['a', 'b', 'c', 'd', 'e'].map((url) => ({ url }));
    const audit = {
      id: 'x',
      title: 'x',
      score: 0,
      scoreDisplayMode: 'binary',
      details: { headings: [{ key: 'url' }], items },
    };
    expect(auditDetail(audit)).toBe('a; b; c (+2 more)');
    expect(auditDetail({ ...audit, details: { type: 'opportunity' } })).toBeNull();
  });
});

describe('scoreEntries', () => {
  it('gives each category its median, range and verdict', () => {
    const entries = scoreEntries('search', {
      performance: [99, 93, 97],
      accessibility: [100, 100, 100],
      'best-practices': [96],
      seo: [],
    });
    expect(entries.map((entry) => [entry.metric, entry.value, entry.met])).toEqual([
      ['lighthouse.search.performance', 97, true],
      ['lighthouse.search.accessibility', 100, true],
      ['lighthouse.search.best-practices', 96, false],
      ['lighthouse.search.seo', null, null],
    ]);
    expect(entries[0]?.spread).toEqual({ n: 3, min: 93, max: 99 });
  });
});

describe('mergeFailures', () => {
  it('counts the runs each audit failed in and keeps its worst score', () => {
    const failure = (id: string, score: number) => ({
      id,
      title: id,
      displayValue: `${score}`,
      detail: null,
      score,
    });
    const merged = mergeFailures([
      [failure('lcp', 80)],
      [failure('lcp', 60), failure('cls', 90)],
      [],
    ]);
    expect(merged).toEqual([
      { ...failure('lcp', 60), runs: 2 },
      { ...failure('cls', 90), runs: 1 },
    ]);
  });
});
