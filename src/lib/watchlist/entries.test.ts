import { describe, expect, it } from 'vitest';
import { splitEntries } from './entries.ts';

describe('splitEntries', () => {
  it('splits pasted lists and CSV lines, dropping blanks and repeats', () => {
    expect(splitEntries('568253\r\nMC277621, 568253-MC277621;\t1000003\n\n568253')).toEqual([
      '568253',
      'MC277621',
      '568253-MC277621',
      '1000003',
    ]);
    expect(splitEntries(' \n , ')).toEqual([]);
  });
});
