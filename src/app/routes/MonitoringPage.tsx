import { PageHeader } from '../../components/PageHeader.tsx';

export function MonitoringPage() {
  return (
    <PageHeader
      title="Monitoring"
      description="Watch your approved carriers for insurance, authority, safety and contact changes, and triage each one."
    />
  );
}
