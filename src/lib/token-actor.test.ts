import { describe, expect, it } from 'vitest';
import { readTokenActor, tokenActor } from './token-actor.ts';

describe('token actors', () => {
  it('reads back the id and the name a token actor was made of, colons in the name too', () => {
    expect(readTokenActor(tokenActor(7, 'McLeod TMS'))).toEqual({ id: 7, name: 'McLeod TMS' });
    expect(readTokenActor(tokenActor(12, 'a:b'))).toEqual({ id: 12, name: 'a:b' });
  });

  it('is no token for a person, the local actor, or a malformed id', () => {
    for (const actor of ['ada', 'local', 'token:', 'token:x:name', 'token:3:', 'tokens:3:x']) {
      expect(readTokenActor(actor)).toBeUndefined();
    }
  });
});
