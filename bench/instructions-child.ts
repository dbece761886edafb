/**
 * One variant of one call, for `instructions.ts` to count under callgrind:
 * `node bench/instructions-child.ts <case> <variant> <concurrency> <warm-up calls> <calls>`. It
 * starts the loopback service (a child process, which callgrind does not follow, so only the
 * caller is counted), makes the warm-up calls, then `calls` more, and exits.
 */

import ky from 'ky';
import { PartnerClient } from 'partner-sdk';

const { startServer, timeCalls } = (await import(
  new URL('./measure.ts', import.meta.url).href
)) as typeof import('./measure');

const TOKEN = 'bench-client-token';
const CASES = {
  retrieve: {
    path: '/products/prd_0000000x',
    sdk: (client: PartnerClient) => client.products.retrieve('prd_0000000x'),
  },
  list: {
    path: '/products?per_page=50',
    sdk: (client: PartnerClient) => client.products.list({ per_page: 50 }),
  },
};

const [caseName, variant, concurrency, warmUp, calls] = process.argv.slice(2);
const testCase = CASES[caseName as keyof typeof CASES];
const server = await startServer();
try {
  const url = `${server.base}${testCase.path}`;
  const client = (validateResponses: 'strict' | 'off') =>
    new PartnerClient({ baseUrl: server.base, clientToken: TOKEN, validateResponses });
  const api = ky.create({ headers: { Accept: 'application/json', 'X-Api-Client-Token': TOKEN } });
  const on = client('strict');
  const off = client('off');
  const call = {
    ky: () => api.get(url).json(),
    on: () => testCase.sdk(on),
    off: () => testCase.sdk(off),
  }[variant as 'ky' | 'on' | 'off'];
  await timeCalls(call, Number(warmUp), Number(concurrency));
  await timeCalls(call, Number(calls), Number(concurrency));
} finally {
  server.stop();
}
