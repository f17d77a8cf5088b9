// @vitest-environment node
/**
 * The Network tab draws from the proxy's summary and its `network` view instead of the full
 * profile: the graph built from those two pieces must be the graph built from the whole answer,
 * evidence included (the VIN detail reads the carrier's own equipment and inspections).
 */
import { describe, expect, it } from 'vitest';
import { summariseProfileBody } from '../../../../../../server-proxy/src/routes/profile-summary.ts';
import { networkItem } from '../../../../../../server-proxy/src/routes/profile-view-model.ts';
import { parseProfile, type Profile } from '../../../../../lib/service/index.ts';
import { sandboxProfile } from '../../../../../test/sandbox-profiles.node.ts';
import { buildGraph } from './graph-model.ts';

function fromViews(raw: unknown): Profile {
  const item = raw as Record<string, unknown>;
  const summary = summariseProfileBody(item) as Record<string, unknown>;
  return parseProfile({ ...summary, ...networkItem(item) }).value;
}

describe.each(['4418207', '3187452', '3999999'])('DOT %s', (dot) => {
  const { raw, parsed } = sandboxProfile(dot);
  const sliced = fromViews(raw);

  it('leaves the long histories out of what the tab reads', () => {
    expect((sliced.inspection_history ?? []).length).toBeLessThanOrEqual(
      (parsed.value.inspection_history ?? []).length,
    );
    expect(sliced.crash_history).toBeUndefined();
  });

  it('draws the same graph, evidence included, as the whole profile', () => {
    const whole = buildGraph({ dot, profile: parsed.value }, []);
    const pieces = buildGraph({ dot, profile: sliced }, []);
    expect(pieces.nodes).toEqual(whole.nodes);
    expect(pieces.edges).toEqual(whole.edges);
    expect(
      whole.edges.some((e) => e.vins.some((v) => Object.keys(v.lastInspection).length > 0)),
    ).toBe(true);
  });
});
