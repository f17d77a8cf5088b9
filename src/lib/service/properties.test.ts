import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  auditProfileParse,
  parseAutocomplete,
  parseErrorBody,
  parseFmcsaProfile,
  parseLiteProfile,
  parseLiteResponse,
  parseMonitoringList,
  parseMonitoringMutation,
  parseProfile,
  parseProfileResponse,
  PROFILE_FIELDS,
  type ParseIssue,
} from './index.ts';
import { isPlainObject } from './kinds.ts';
import {
  fixture,
  FIXTURE_NAMES,
  fixtureObject,
  type FixtureName,
} from './fixtures.test-support.ts';

const PARSERS: Record<string, (body: unknown) => { issues: ParseIssue[] }> = {
  parseProfile,
  parseProfileResponse,
  parseLiteProfile,
  parseLiteResponse,
  parseFmcsaProfile,
  parseAutocomplete,
  parseMonitoringList,
  parseMonitoringMutation,
  parseErrorBody,
};

function expectWellFormedIssues(issues: ParseIssue[]): void {
  for (const issue of issues) {
    expect(typeof issue.path).toBe('string');
    expect(typeof issue.message).toBe('string');
  }
}

/** Objects whose keys are mostly real profile field names, so the field readers get exercised. */
const profileLike = fc.dictionary(
  fc.constantFrom(...PROFILE_FIELDS, 'bo3_address_city', 'items', 'total_count'),
  fc.jsonValue({ maxDepth: 3 }),
  { maxKeys: 30 },
);

const changeRecordLike = fc.dictionary(
  fc
    .tuple(
      fc.constantFrom(...PROFILE_FIELDS.slice(0, 40), 'x'),
      fc.constantFrom('_current', '_prior', '_changed'),
    )
    .map(([field, suffix]) => `${field}${suffix}`),
  fc.jsonValue({ maxDepth: 2 }),
);

describe('parsers never throw', () => {
  it.each(Object.entries(PARSERS))('%s on any JSON value', (_name, parse) => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        expectWellFormedIssues(parse(body).issues);
      }),
      { numRuns: 150 },
    );
  });

  it.each(Object.entries(PARSERS))('%s on profile-like objects', (_name, parse) => {
    fc.assert(
      fc.property(profileLike, (body) => {
        expectWellFormedIssues(parse(body).issues);
      }),
      { numRuns: 150 },
    );
  });

  it('parseMonitoringList on change-record-like items', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.array(changeRecordLike, { maxLength: 3 })),
        (items) => {
          const { value } = parseMonitoringList({ total_count: 1, items });
          for (const change of value.profiles.flatMap((p) => p.records.flatMap((r) => r.changes))) {
            expect(typeof change.field).toBe('string');
          }
        },
      ),
    );
  });

  it('auditProfileParse on profile-like objects, without ever losing unknown keys', () => {
    fc.assert(
      fc.property(profileLike, fc.dictionary(fc.string(), fc.jsonValue()), (known, unknown) => {
        const raw = { ...unknown, ...known };
        const audit = auditProfileParse(raw);
        const unknownKeys = Object.keys(unknown).filter((key) => !Object.hasOwn(known, key));
        for (const key of unknownKeys) {
          if (!PROFILE_FIELDS.includes(key as never) && key !== 'bo3_address_city') {
            expect(audit.lost).not.toContain(key);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});

/** Every path (in the audit's `a.b[0].c` form) of an object key in a JSON value. */
function keyPaths(value: unknown, path = ''): string[] {
  if (Array.isArray(value))
    return value.flatMap((item, index) => keyPaths(item, `${path}[${index}]`));
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const childPath = path ? `${path}.${key}` : key;
    return [childPath, ...keyPaths(child, childPath)];
  });
}

function setAtPath(root: unknown, path: string, replacement: unknown): void {
  const steps = path.match(/[^.[\]]+/g) ?? [];
  let node: unknown = root;
  for (const step of steps.slice(0, -1)) {
    if (!isPlainObject(node) && !Array.isArray(node)) return;
    node = (node as Record<string, unknown>)[step];
  }
  const last = steps.at(-1);
  if (last !== undefined && (isPlainObject(node) || Array.isArray(node))) {
    Object.defineProperty(node, last, {
      value: replacement,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
}

const withoutIndexes = (path: string) => path.replace(/\[\d*\]/g, '');

describe('mutated fixtures', () => {
  const PROFILE_PARSER: Partial<Record<FixtureName, keyof typeof PARSERS>> = {
    profile_265752: 'parseProfile',
    profile_lite_265752: 'parseLiteProfile',
    monitoring_list: 'parseMonitoringList',
    autocomplete: 'parseAutocomplete',
    monitoring_add_207: 'parseMonitoringMutation',
    error_404: 'parseErrorBody',
  };

  it.each(FIXTURE_NAMES)('%s survives random keys replaced with random JSON', (name) => {
    const paths = keyPaths(fixture(name));
    const parse = PARSERS[PROFILE_PARSER[name] ?? 'parseProfile'];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 3 })), {
          maxLength: 8,
        }),
        (mutations) => {
          const body = fixture(name);
          for (const [path, value] of mutations) setAtPath(body, path, value);
          expectWellFormedIssues(parse?.(body).issues ?? []);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('the full profile loses nothing but the values that were replaced', () => {
    const paths = keyPaths(fixture('profile_265752'));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 2 })), {
          maxLength: 6,
        }),
        (mutations) => {
          const body = fixtureObject('profile_265752');
          for (const [path, value] of mutations) setAtPath(body, path, value);
          const mutated = mutations.map(([path]) => withoutIndexes(path));
          for (const lost of auditProfileParse(body).lost.map(withoutIndexes)) {
            expect(mutated.some((path) => lost.startsWith(path) || path.startsWith(lost))).toBe(
              true,
            );
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** Re-spell a JSON value the way the live service might: numbers as strings and back, Y/N flags. */
function respell(value: unknown, pick: () => number): unknown {
  if (Array.isArray(value)) return value.map((item) => respell(item, pick));
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, respell(v, pick)]));
  }
  if (typeof value === 'boolean')
    return [value, value ? 'Y' : 'N', value ? 1 : 0, String(value)][pick() % 4];
  if (
    typeof value === 'string' &&
    /^(0|[1-9]\d{0,12})(\.\d+)?$/.test(value) &&
    String(Number(value)) === value
  ) {
    return pick() % 2 ? Number(value) : value;
  }
  if (typeof value === 'number') return pick() % 2 ? String(value) : value;
  return value;
}

describe('representation invariance', () => {
  it('the live profile normalises to the same value however numbers and flags are spelled', () => {
    const expected = parseProfile(fixture('profile_265752')).value;
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 64 }), (choices) => {
        let cursor = 0;
        const pick = () => choices[cursor++ % choices.length] ?? 0;
        const { value, issues } = parseProfile(respell(fixture('profile_265752'), pick));
        expect(issues).toEqual([]);
        expect(value).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});
