/** Which upstream the proxy talks to: the embedded sandbox, the service's test keys, or live keys. */
export type ServiceMode = 'sandbox' | 'test' | 'live';

interface ModeBannerProps {
  mode: ServiceMode | undefined;
}

const BANNERS: Record<
  Exclude<ServiceMode, 'live'>,
  { label: string; detail: string; tone: string }
> = {
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
};

/** A strip that tells the user the data on screen is not real. Live mode shows nothing. */
export function ModeBanner({ mode }: ModeBannerProps) {
  if (mode === undefined || mode === 'live') return null;
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
      </p>
    </div>
  );
}
