/**
 * A partner's process in whatever zone `TZ` names (and locale `LANG` and `LC_ALL` name): reads the service's timestamps with
 * `parseTimestamp`, sends statement ranges given as `Date`s, and looks for a lost refund across a
 * São Paulo midnight with the service's clock 5 minutes off either way, all against a stub service
 * on loopback it starts itself. Prints one JSON line of what it saw, then ends. Started by
 * time-zones.test.ts, once per zone.
 */

import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PartnerClient, parseTimestamp } from 'partner-sdk';

/** Every form the spec's answers use, at the days where a zone's arithmetic goes wrong. */
const TIMESTAMPS = [
  '2024-02-29 23:59:59', // product/offer `created_at`: the last second of a leap day
  '2025-01-01 00:00:00', // a year's first second, São Paulo
  '31/12/2024 23:59:59', // refund `created_at`: a year's last second
  '29/02/2024 00:00:00',
  '30/04/2025 21:30:00', // a month's end, past midnight UTC
  '17/02/2018 23:30:00', // São Paulo's summer time ended: the hour repeated
  '04/11/2018 00:30:00', // São Paulo's summer time began: the hour skipped
  '2018-01-15 12:00:00', // summer time (UTC-2)
  '2025-02-10T13:05:41.482913Z', // fee-tier history, event envelope
  '2025-02-20T23:15:00-03:00', // anticipation
];

/** Instants given as `Date`s for a statement's range: 23:30 UTC, and midnight UTC. */
const RANGES = [
  { start: '2025-01-31T23:30:00Z', end: '2025-02-28T23:30:00Z' },
  { start: '2024-02-29T00:00:00Z', end: '2024-03-01T02:59:59Z' },
];

const SKEWS_MS = [-5 * 60_000, 0, 5 * 60_000];
const SAO_PAULO_MIDNIGHT = Date.UTC(2026, 10, 27, 3, 0, 0);

/** `DD/MM/YYYY HH:mm:ss` in São Paulo (UTC-3 since 2019), as the service writes a refund's. */
function brazilian(instant: number): string {
  const d = new Date(instant - 3 * 3_600_000).toISOString();
  return `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)} ${d.slice(11, 19)}`;
}

const sent: unknown[] = [];

/** The stub service: an export's body is kept; a transaction `tx_<skew>` answers with its clock `skew` off. */
async function answer(method: string, url: string, body: string, res: ServerResponse) {
  if (method === 'POST') {
    sent.push(JSON.parse(body).filter.betweenDates);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'success', message: '', data: { hash: 'exp_1' } }));
    return;
  }
  // `tx_zoneless`: the service's clock right, its `Date` header written without a zone, which no
  // HTTP date is (a proxy's mistake): read as no date, not as this process's local time.
  const zoneless = url.includes('tx_zoneless');
  const skew = zoneless ? 0 : Number(/tx_(-?\d+)/.exec(url)?.[1]);
  // The call started 2 s before midnight in the service's clock (the zoneless one's clock is this
  // machine's): one refund made 3 s after (the lost request's, on the next day), one 20 s before
  // (an older one, outside the margin).
  const base = zoneless ? started : SAO_PAULO_MIDNIGHT;
  const since = base - 2_000;
  const refunds = [
    { hash: 'old', status: 'failed', created_at: brazilian(since - 20_000) },
    { hash: 'lost', status: 'failed', created_at: brazilian(since + 3_000) },
  ];
  const serviceNow = new Date(base + skew + (Date.now() - started));
  res.writeHead(200, {
    'content-type': 'application/json',
    date: zoneless
      ? serviceNow.toISOString().slice(0, 19).replace('T', ' ')
      : serviceNow.toUTCString(),
  });
  res.end(JSON.stringify({ status: 'success', message: '', data: refunds }));
}

const started = Date.now();
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => {
    body += chunk.toString();
  });
  req.on('end', () => void answer(req.method ?? '', req.url ?? '', body, res));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const seller = new PartnerClient({
  baseUrl: `http://127.0.0.1:${port}/api/v1`,
  clientToken: 'ct',
  logLevel: 'off',
  telemetry: false,
}).forUser('pt');

const parsed = TIMESTAMPS.map((value) => parseTimestamp(value).toISOString());
for (const range of RANGES) {
  const betweenDates = { start: new Date(range.start), end: new Date(range.end) };
  await seller.statements.export({ format: 'csv', filter: { betweenDates } });
}
const found: Record<string, string | null> = {};
for (const skew of [...SKEWS_MS, 'zoneless'] as const) {
  // `since` in this machine's clock: the service's 23:59:58 less its skew.
  const since = new Date(started - 2_000 - (skew === 'zoneless' ? 0 : skew));
  found[skew] = (await seller.refunds.findCreatedSince(`tx_${skew}`, since))?.hash ?? null;
}
server.close();
console.log(
  JSON.stringify({
    zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    locale: Intl.NumberFormat().resolvedOptions().locale,
    offsetMinutes: new Date(SAO_PAULO_MIDNIGHT).getTimezoneOffset(),
    parsed,
    exports: sent,
    found,
  }),
);
