import { Link } from 'react-router';
import { describeStatus, isTroubled, type KnownCarrier } from './model.ts';
import { carrierPath } from '../../../../../lib/carrier/paths.ts';

/** A linked DOT: link to its profile, its name when known, and a warning when it is in trouble. */
export function CarrierLink({ dot, known }: { dot: string; known: KnownCarrier | undefined }) {
  const status = describeStatus(known);
  const troubled = isTroubled(known);
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-2">
      <Link
        to={carrierPath(dot)}
        className="font-medium text-sky-800 underline underline-offset-2 dark:text-sky-300"
      >
        DOT {dot}
      </Link>
      <span className="text-neutral-800 dark:text-neutral-200">
        {known?.name ?? (known?.notFound ? 'no carrier found' : 'name not looked up')}
      </span>
      {status ? (
        <span
          className={
            troubled
              ? 'text-xs font-semibold text-red-700 dark:text-red-300'
              : 'text-xs text-neutral-600 dark:text-neutral-400'
          }
        >
          {troubled ? '⚠ ' : ''}
          {status}
        </span>
      ) : null}
    </span>
  );
}
