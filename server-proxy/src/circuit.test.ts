import { describe, expect, it } from 'vitest';
import { Circuit, DEFAULT_CIRCUIT_SETTINGS } from './circuit.ts';

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('Circuit', () => {
  it('opens after 5 consecutive failures for 30 s, then lets exactly one probe through', () => {
    const time = clock();
    const circuit = new Circuit(DEFAULT_CIRCUIT_SETTINGS, time.now);
    for (let i = 0; i < 4; i += 1) {
      expect(circuit.admit()).toEqual({ ok: true });
      circuit.failed();
    }
    circuit.succeeded(); // a success in between starts the count again
    for (let i = 0; i < 5; i += 1) {
      expect(circuit.admit().ok).toBe(true);
      circuit.failed();
    }
    expect(circuit.admit()).toEqual({ ok: false, retryAfterMs: 30_000 });
    time.advance(30_000);
    expect(circuit.admit()).toEqual({ ok: true });
    expect(circuit.admit()).toEqual({ ok: false, retryAfterMs: 5_000 });
    circuit.succeeded();
    expect(circuit.admit()).toEqual({ ok: true });
  });

  it('opens again when the probe fails, and frees a probe that never reported back', () => {
    const time = clock();
    const circuit = new Circuit({ ...DEFAULT_CIRCUIT_SETTINGS, failureThreshold: 1 }, time.now);
    circuit.admit();
    circuit.failed();
    time.advance(30_000);
    expect(circuit.admit().ok).toBe(true);
    circuit.failed();
    expect(circuit.refusing()).toEqual({ ok: false, retryAfterMs: 30_000 });
    time.advance(30_000);
    expect(circuit.admit().ok).toBe(true); // a probe that is lost ...
    time.advance(30_000);
    expect(circuit.admit().ok).toBe(true); // ... holds the circuit for 30 s at most
  });

  it('allows retries up to the reserve, then one per five first attempts', () => {
    const circuit = new Circuit(DEFAULT_CIRCUIT_SETTINGS);
    let retries = 0;
    for (let i = 0; i < 100; i += 1) {
      circuit.earn();
      while (circuit.spendRetry()) retries += 1;
    }
    // the reserve of 10 (the first earn is lost to the cap), then 99 × 0.2
    expect(retries).toBe(10 + 19);
  });
});
