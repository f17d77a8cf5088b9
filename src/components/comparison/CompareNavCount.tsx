import { useCompareSelection } from '../../lib/comparison/selection.ts';

/** The navigation's " (2)" after "Compare": how many carriers are picked; nothing when none. */
export function CompareNavCount() {
  const count = useCompareSelection().length;
  return count > 0 ? <span className="tabular-nums"> ({count})</span> : null;
}
