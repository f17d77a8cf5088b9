import { useState } from 'react';
import { BUTTON } from '../../../../../components/controls.ts';
import { useCan } from '../../../../../entities/session/role.ts';
import { ResolveAndWatch } from '../../../../../entities/watchlist/components/ResolveAndWatch.tsx';
import { formatCount } from '../../../../../lib/format.ts';

/**
 * "Watch the whole network": the DOTs of every link list are resolved to profile ids (a costed
 * look-up, shown first), estimated, confirmed and sent with the shared bulk watch.
 */
export function NetworkWatch({ dots }: { dots: readonly string[] }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="flex flex-col gap-3">
      <div>
        <button
          type="button"
          className={BUTTON}
          aria-expanded={open}
          onClick={() => setOpen((value) => !value)}
        >
          Watch the whole network ({formatCount(dots.length)}{' '}
          {dots.length === 1 ? 'carrier' : 'carriers'})
        </button>
      </div>
      {open ? <WatchNetwork dots={dots} /> : null}
    </div>
  );
}

/** The steps, once opened (the role is asked only then). */
function WatchNetwork({ dots }: { dots: readonly string[] }) {
  const { reason } = useCan('watch carriers');
  return <ResolveAndWatch entries={dots} noun="network carriers" refusal={reason} />;
}
