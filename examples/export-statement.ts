/**
 * Export the account statement and download the file (`statements.export`, `waitForExport`,
 * `download`). The export runs asynchronously; asking for the same export while it runs returns
 * the running one (`alreadyRunning`), and the finished file is streamed to disk.
 *
 * Runs against the embedded mock API; against a real service it needs `PARTNER_API_PUBLIC_TOKEN`
 * (see `support/setup.ts`).
 */

import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ExportFailedError, type StatementExportParams } from 'partner-sdk';
import { connect, say, step } from './support/setup';

const example = await connect('Export the account statement');
try {
  const { seller } = example;
  const now = new Date();
  const day = (date: Date) => date.toISOString().slice(0, 10);
  const lastMonth: StatementExportParams = {
    format: 'csv',
    filter: {
      betweenDates: {
        start: day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))),
        end: day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0))),
      },
    },
  };

  step('Request the export of last month, as CSV');
  const exported = await seller.statements.export(lastMonth);
  say(`export ${exported.hash}: ${exported.status}`);

  step('Ask again while it runs: the running export comes back (409), not an error');
  const again = await seller.statements.export(lastMonth);
  say(`export ${again.hash}: ${again.alreadyRunning ? 'already running' : again.status}`);

  step('Wait until the file is ready');
  try {
    const finished = await seller.statements.waitForExport(exported, {
      timeout: 10 * 60_000,
      onStatus: (status) => say(`… ${status}`),
    });
    say(`ready at ${new URL(finished.url!).pathname} (a pre-signed URL)`);

    step('Download it to a file');
    const dir = await mkdtemp(join(tmpdir(), 'partner-sdk-example-'));
    const path = join(dir, `statement-${finished.hash}.csv`);
    const response = await seller.statements.download(finished);
    // Node's name for the body: with the DOM lib, `Response` is the DOM's, which fromWeb refuses.
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(path));
    const lines = (await readFile(path, 'utf8')).trimEnd().split(/\r?\n/);
    say(`saved ${lines.length - 1} entries to ${path}`);
    for (const line of lines.slice(0, 3)) say(`  ${line}`);
    await rm(dir, { recursive: true }); // only a demo: do not leave it behind
  } catch (error) {
    if (!(error instanceof ExportFailedError)) throw error;
    say(`the export failed: ${error.export.status}`);
  }
} finally {
  await example.close();
}
