/**
 * The record's receipt on the printed record (docs/vetting.md, "An anchored record"): its fields
 * in words and the receipt's JSON, to keep with the paper; on screen "Copy receipt" and "Download
 * receipt (.json)". Whoever kept it can later show, with `POST /api/local/decisions/verify`, that
 * the record was not cut, deleted or changed.
 */
import { useState } from 'react';
import { BUTTON, MUTED } from '../../../components/controls.ts';
import { QueryState } from '../../../components/QueryState.tsx';
import { downloadText } from '../../../lib/download.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useDecisionReceipt, type Receipt } from '../api/receipt.ts';

type Loaded = NonNullable<ReturnType<typeof useDecisionReceipt>['data']>;

/** On paper the fields take one line (the record hash is printed under "Chain" just above). */
function PrintedFields({ receipt }: { receipt: Receipt }) {
  const records = `${receipt.chain_length} record${receipt.chain_length === 1 ? '' : 's'}`;
  return (
    <p className="hidden print:block print:text-[7px]" data-visual="dynamic">
      Record #{receipt.record_id}, number {receipt.record_position} in a chain of {records} · issued{' '}
      {formatDateTime(receipt.issued_at)} · key <span className="font-mono">{receipt.key_id}</span>{' '}
      · head hash <span className="font-mono">{receipt.head_hash}</span>
    </p>
  );
}

function ReceiptFields({ receipt }: { receipt: Receipt }) {
  return (
    <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 text-xs print:hidden">
      <dt className="font-medium">Record</dt>
      <dd>
        #{receipt.record_id}, number {receipt.record_position} in the chain
      </dd>
      <dt className="font-medium">Chain length</dt>
      <dd data-visual="dynamic">
        {receipt.chain_length} record{receipt.chain_length === 1 ? '' : 's'} when issued
      </dd>
      <dt className="font-medium">Record hash</dt>
      <dd className="font-mono break-all" data-visual="dynamic">
        {receipt.record_hash}
      </dd>
      <dt className="font-medium">Head hash</dt>
      <dd className="font-mono break-all" data-visual="dynamic">
        {receipt.head_hash}
      </dd>
      <dt className="font-medium">Issued</dt>
      <dd data-visual="dynamic">{formatDateTime(receipt.issued_at)}</dd>
      <dt className="font-medium">Signing key</dt>
      <dd className="font-mono break-all">{receipt.key_id}</dd>
    </dl>
  );
}

function ReceiptActions({ id, json }: { id: number; json: string }) {
  const [status, setStatus] = useState('');
  async function copy() {
    try {
      await navigator.clipboard.writeText(json);
      setStatus('Receipt copied.');
    } catch {
      setStatus('Could not copy: select the receipt below and copy it, or download it.');
    }
  }
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2 print:hidden">
      <button type="button" className={BUTTON} onClick={() => void copy()}>
        Copy receipt
      </button>
      <button
        type="button"
        className={BUTTON}
        onClick={() => {
          downloadText(`${json}\n`, `decision-${id}-receipt.json`, 'application/json');
          setStatus('Receipt downloaded.');
        }}
      >
        Download receipt (.json)
      </button>
      <p role="status" className={`${MUTED} text-xs`}>
        {status}
      </p>
    </div>
  );
}

function ReceiptBody({ loaded }: { loaded: Loaded }) {
  const { receipt, raw } = loaded;
  const json = JSON.stringify(raw);
  return (
    <>
      <ReceiptFields receipt={receipt} />
      <PrintedFields receipt={receipt} />
      <ReceiptActions id={receipt.record_id} json={json} />
      <pre
        className="mt-2 rounded border border-neutral-300 bg-neutral-50 p-2 font-mono text-[11px] break-all whitespace-pre-wrap dark:border-neutral-700 dark:bg-neutral-900 print:mt-0 print:border-neutral-500 print:bg-white print:px-1 print:py-0.5 print:text-[5.5px] print:leading-[1.2]"
        data-testid="receipt-json"
        data-visual="dynamic"
      >
        {json}
      </pre>
      <p className={`${MUTED} mt-1 text-xs print:mt-0 print:text-[6.5px] print:text-neutral-700`}>
        <span className="print:hidden">
          This receipt is signed by the proxy (Ed25519). To check it later, send it as{' '}
          <code>{'{"receipts": [<receipt>]}'}</code> to POST /api/local/decisions/verify, or check
          its signature offline with the public key (GET /api/local/decisions/public-key).
        </span>
        <span className="hidden print:inline">
          Signed by the proxy (Ed25519). Check: POST {'{"receipts": [<this JSON>]}'} to
          /api/local/decisions/verify, or offline with the public key.
        </span>
      </p>
    </>
  );
}

export function DecisionReceipt({ id }: { id: string }) {
  const receipt = useDecisionReceipt(id);
  return (
    <section className="mt-4 break-inside-avoid print:mt-0.5" aria-labelledby="receipt-heading">
      <h2 id="receipt-heading" className="text-lg font-semibold print:text-[9px]">
        Receipt — keep this with the printed record
      </h2>
      <QueryState<Loaded> query={receipt} what="the record's receipt">
        {(loaded) => <ReceiptBody loaded={loaded} />}
      </QueryState>
    </section>
  );
}
