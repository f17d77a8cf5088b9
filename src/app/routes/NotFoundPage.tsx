import { Link, useLocation } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <section>
      <PageHeader title="Page not found" description={`There is no page at ${pathname}.`} />
      <Link
        to="/search"
        className="font-medium text-sky-700 underline underline-offset-4 hover:text-sky-900 dark:text-sky-400 dark:hover:text-sky-300"
      >
        Go to search
      </Link>
    </section>
  );
}
