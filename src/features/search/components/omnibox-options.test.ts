import { describe, expect, it } from 'vitest';
import type { AutocompleteItem } from '../../../lib/service/index.ts';
import { detectSearchKey } from '../lib/search-keys.ts';
import { buildOmniboxOptions, type OmniboxOption } from './omnibox-options.ts';

function item(dot: string, legal_name: string): AutocompleteItem {
  return { dot_number: dot, legal_name, extra: {} } as AutocompleteItem;
}

function labels(options: OmniboxOption[]): string[] {
  return options.map((option) =>
    option.kind === 'search'
      ? option.label
      : `${option.item.legal_name ?? ''}${option.count > 1 ? ` ×${option.count}` : ''}`,
  );
}

function build(input: string, suggestions: AutocompleteItem[]) {
  return buildOmniboxOptions(input, detectSearchKey(input), undefined, suggestions);
}

describe('omnibox options for a name', () => {
  it('gives each first word a turn, so one prolific name does not hide another', () => {
    const answer = [
      item('1', 'SWIFTLINE AMERICAN FREIGHT CORP'),
      item('2', 'SWIFTLINE ATLANTIC CARRIERS LLC'),
      item('3', 'SWIFTLINE BIG SKY DELIVERY INC'),
      item('4', 'SWIFTPATH EXPRESS LLC'),
      item('5', 'SWIFTLINE COASTAL MOVERS INC'),
      item('6', 'SWIFTY TRUCKING'),
    ];
    expect(labels(build('swif', answer))).toEqual([
      'SWIFTLINE AMERICAN FREIGHT CORP',
      'SWIFTPATH EXPRESS LLC',
      'SWIFTY TRUCKING',
      'SWIFTLINE ATLANTIC CARRIERS LLC',
      'SWIFTLINE BIG SKY DELIVERY INC',
      'SWIFTLINE COASTAL MOVERS INC',
    ]);
  });

  it('collapses carriers that share a legal name into one option with their count', () => {
    const answer = [
      item('1', 'SWIFTLINE ATLANTIC MOTOR LINES INC'),
      item('2', 'Swiftline  Atlantic Motor Lines Inc'),
      item('3', 'SWIFTLINE ATLANTIC TRANSPORT LLC'),
    ];
    const options = build('swiftline a', answer);
    expect(labels(options)).toEqual([
      'SWIFTLINE ATLANTIC MOTOR LINES INC ×2',
      'SWIFTLINE ATLANTIC TRANSPORT LLC',
    ]);
  });
});

describe('omnibox options for digits', () => {
  it('puts the DOT itself first, then other DOTs, then the docket', () => {
    const answer = [item('5682530', 'OTHER CARRIER'), item('568253', 'HANSEN & ADKINS')];
    expect(labels(build('568253', answer))).toEqual([
      'HANSEN & ADKINS',
      'OTHER CARRIER',
      'Search Docket (MC/MX/FF): MC568253',
    ]);
  });

  it('offers "Search USDOT number" first when no suggestion is that DOT', () => {
    expect(labels(build('0277621', []))).toEqual([
      'Search USDOT number: 277621',
      'Search Docket (MC/MX/FF): MC0277621',
    ]);
  });
});
