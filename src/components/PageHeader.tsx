interface PageHeaderProps {
  title: string;
  description: string;
}

/** A page's <h1>, its one-line purpose and the document title. */
export function PageHeader({ title, description }: PageHeaderProps) {
  return (
    <header className="mb-8">
      <title>{`${title} · carrier-desk`}</title>
      <h1 className="text-2xl font-semibold tracking-tight text-neutral-950 dark:text-neutral-50">
        {title}
      </h1>
      <p className="mt-2 max-w-prose text-neutral-600 dark:text-neutral-400">{description}</p>
    </header>
  );
}
