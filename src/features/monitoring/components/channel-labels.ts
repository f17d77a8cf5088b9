import type { Channel } from '../../../lib/service/index.ts';

export const CHANNEL_LABELS: Record<Channel, string> = {
  insurance: 'Insurance',
  authority: 'Authority',
  safety: 'Safety',
  fleet: 'Fleet',
  contact: 'Contact',
  risk: 'Risk',
};
