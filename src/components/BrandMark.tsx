/** The truck mark from `public/favicon.svg`, drawn in the current text colour. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={className}>
      <rect width="32" height="32" rx="7" fill="currentColor" />
      <g className="fill-white dark:fill-neutral-950">
        <path d="M4.5 10.5A1.5 1.5 0 0 1 6 9h11.5A1.5 1.5 0 0 1 19 10.5V21H4.5z" />
        <path d="M20.5 12.5h4a1.5 1.5 0 0 1 1.2.6l2.4 3.2a1.5 1.5 0 0 1 .3.9V21h-7.9z" />
        <circle cx="10" cy="22" r="2.7" />
        <circle cx="23.5" cy="22" r="2.7" />
      </g>
      <path d="M22.5 14.5h2l1.7 2.3h-3.7z" fill="currentColor" />
      <g fill="none" stroke="currentColor" strokeWidth="1.5">
        <circle cx="10" cy="22" r="2.7" />
        <circle cx="23.5" cy="22" r="2.7" />
      </g>
    </svg>
  );
}
