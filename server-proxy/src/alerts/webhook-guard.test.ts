import { describe, expect, it } from 'vitest';
import { isNotPublic, webhookRefusal } from './webhook-guard.ts';

const noDns = () => Promise.reject(new Error('no DNS in this test'));

describe('webhook targets', () => {
  it('tells public addresses from loopback, private, link-local and reserved ones', () => {
    for (const inside of [
      '127.0.0.1',
      '10.20.30.40',
      '172.31.255.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      'not an address',
    ]) {
      expect(isNotPublic(inside), inside).toBe(true);
    }
    for (const outside of ['93.184.216.34', '172.32.0.1', '8.8.8.8', '2606:4700::1111']) {
      expect(isNotPublic(outside), outside).toBe(false);
    }
  });

  it('checks every address a name resolves to', async () => {
    const both = () => Promise.resolve(['93.184.216.34', '10.0.0.1']);
    expect(await webhookRefusal('https://hooks.example.com/x', [], both)).toContain('10.0.0.1');
    const outside = () => Promise.resolve(['93.184.216.34']);
    expect(await webhookRefusal('https://hooks.example.com/x', [], outside)).toBeUndefined();
    expect(await webhookRefusal('https://hooks.example.com/x', [], noDns)).toContain(
      'could not be resolved',
    );
  });

  it('with an allow-list, takes exactly its hosts, ports and domains, private or not', async () => {
    const list = ['127.0.0.1:8080', '*.example.com', 'hooks.slack.com', '[::1]'];
    const allowed = [
      'http://127.0.0.1:8080/x',
      'https://a.example.com/x',
      'https://b.c.example.com/x',
      'https://hooks.slack.com/services/T/B/C',
      'http://[::1]:9000/x',
    ];
    for (const target of allowed) expect(await webhookRefusal(target, list, noDns)).toBeUndefined();
    for (const target of [
      'http://127.0.0.1:8081/x',
      'http://127.0.0.1/x',
      'https://example.com/x',
      'https://example.com.evil.test/x',
      'https://hooks.slack.com.evil.test/x',
      'http://10.0.0.1/x',
    ]) {
      expect(await webhookRefusal(target, list, noDns), target).toContain('ALERT_WEBHOOK_HOSTS');
    }
  });
});
