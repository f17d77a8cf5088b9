import { Facts } from '../../../../../components/Facts.tsx';
import type { Profile } from '../../../../../lib/service/index.ts';
import { inspectionTotals } from './model.ts';

export function InspectionTotals({ profile }: { profile: Profile }) {
  return <Facts items={inspectionTotals(profile)} />;
}
