/** Which upstream the proxy talks to: the embedded sandbox, the service's test keys, or live keys. */
export type ServiceMode = 'sandbox' | 'test' | 'live';

interface ModeBannerProps {
  mode: ServiceMode | undefined;
  /** the proxy's monthly budget in USD, shown in live mode when configured */
  budgetUsd?: number | undefined;
}

interface Banner {
  label: string;
  detail: string;
  tone: string;
}

const BANNERS: Record<ServiceMode, Banner> = {
  sandbox: {
    label: 'Sandbox',
    detail: 'fictional data, nothing is billed',
    tone: 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700/60 dark:bg-amber-950/60 dark:text-amber-100',
  },
  test: {
    label: 'Test mode',
    detail: "the service's test key: fixture carriers, nothing is billed",
    tone: 'border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-700/60 dark:bg-sky-950/60 dark:text-sky-100',
  },
  live: {
    label: 'Live',
    detail: 'real carrier data, calls are billed to the service key',
    tone: 'border-rose-300 bg-rose-50 text-rose-950 dark:border-rose-700/60 dark:bg-rose-950/60 dark:text-rose-100',
  },
};

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

function budgetNote(mode: ServiceMode, budgetUsd: number | undefined): string {
  if (mode !== 'live') return '';
  return budgetUsd === undefined
    ? ' (no monthly budget set)'
    : ` (monthly budget ${usd.format(budgetUsd)})`;
}

/** A strip that says what the data on screen is and whether calls cost money. Unknown: nothing. */
export function ModeBanner({ mode, budgetUsd }: ModeBannerProps) {
  if (mode === undefined) return null;
  const banner = BANNERS[mode];
  return (
    <div
      role="note"
      aria-label="Service mode"
      data-mode={mode}
      className={`border-b ${banner.tone}`}
    >
      <p className="mx-auto max-w-6xl px-4 py-1.5 text-sm sm:px-6">
        <strong className="font-semibold">{banner.label}</strong> — {banner.detail}
        {budgetNote(mode, budgetUsd)}
      </p>
    </div>
  );
}
