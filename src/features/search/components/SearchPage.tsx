import { PageHeader } from '../../../components/PageHeader.tsx';

export function SearchPage() {
  return (
    <PageHeader
      title="Search"
      description="Find a carrier by DOT or MC number, company name, phone, e-mail or VIN, and open its profile."
    />
  );
}
