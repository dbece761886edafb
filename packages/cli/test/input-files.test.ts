/**
 * Input files as spreadsheets and editors write them: a byte-order mark, CRLF line ends, quoted
 * fields with commas, empty lines, a header row. Run through `--dry-run`, which reads and checks
 * every item as a real run would and sends nothing.
 */

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startStub } from '../../../test/helpers/stub-server';
import { withTimeout } from '../../../test/helpers/waits';
import { cli, jsonLines, startCli, useCliKit } from './run-cli';

const { mock, env, dir } = useCliKit('input');

const BOM = '\uFEFF';

describe('partner-sdk input files', { timeout: 90_000 }, () => {
  it('reads hashes from a CSV with a BOM, CRLF, a header, quotes and empty lines, from a file and from stdin', async () => {
    const csv = `${BOM}transaction_hash,amount\r\n"trx_a1",9900\r\n\r\n  trx_b2 ,"1,50"\r\n# a comment\r\ntrx_c3\r\n`;
    const file = join(dir, 'hashes.csv');
    await writeFile(file, csv);
    const before = mock.stats.requests;
    for (const [args, input] of [
      [['--file', file], undefined],
      [[], csv],
    ] as const) {
      const result = await cli(['--json', 'refunds', 'request', '--dry-run', ...args], {
        env,
        input,
      });
      expect(result.code).toBe(0);
      const outcomes = jsonLines(result.stdout).filter((line) => !('summary' in line));
      expect(outcomes).toEqual(
        ['trx_a1', 'trx_b2', 'trx_c3'].map((key) => ({ key, status: 'valid' })),
      );
    }
    expect(mock.stats.requests).toBe(before);
  });

  it('sends each hash of a slow pipe as its line arrives: a BOM, CRLF, the last line without its newline', async () => {
    const hashes = Array.from({ length: 3 }, () => mock.addTransaction());
    const run = startCli(['--json', 'refunds', 'request'], { env, stdin: 'pipe' });
    try {
      // Each line only once the one before has its outcome: a reader buffering to the end would
      // never print it, and the test would time out.
      const lines = [`${BOM}${hashes[0]}\r\n`, `${hashes[1]}\r\n`, hashes[2]!];
      for (const [i, line] of lines.entries()) {
        run.stdin!.write(line);
        if (i < lines.length - 1) await run.printed((out) => out.includes(`"${hashes[i]}"`));
      }
      run.stdin!.end();
      const ended = await withTimeout(run.exited, 30_000, 'the command to end');
      expect(ended.code, ended.stderr).toBe(0);
      const outcomes = jsonLines(ended.stdout).filter((line) => 'key' in line);
      expect(outcomes.map((o) => [o.key, o.status])).toEqual(
        hashes.map((hash) => [hash, 'succeeded']),
      );
    } finally {
      run.stop('SIGKILL');
    }
  });

  it('keeps offer codes, product hashes and names as the CSV wrote them, never as numbers', async () => {
    const { hash } = mock.products.course;
    const csv = `${BOM}product_hash,offer_code,name,price,allow_pix\r\n"${hash}",1.50,"2024",4990,true\r\n\r\n${hash},007,"Plano, anual",100,false\r\n`;
    const file = join(dir, 'offers.csv');
    await writeFile(file, csv);
    const result = await cli(['--json', 'offers', 'update', '--dry-run', '--file', file], { env });
    expect(result.code).toBe(0);
    const outcomes = jsonLines(result.stdout).filter((line) => !('summary' in line));
    expect(outcomes).toEqual([
      { key: `${hash}/1.50`, status: 'valid' },
      { key: `${hash}/007`, status: 'valid' },
    ]);
  });

  it("sends a JSON line's update with the sellerToken it names, never as the run's seller", async () => {
    const { course, ebook } = mock.products;
    const company = mock.sellers.company.publicToken;
    const file = join(dir, 'offers-per-seller.jsonl');
    const lines = [
      {
        productHash: course.hash,
        offerCode: course.offerCode,
        params: { price: 4990 },
        sellerToken: company,
      },
      { product_hash: ebook.hash, offer_code: ebook.offerCode, price: 5990, sellerToken: company },
    ];
    await writeFile(file, lines.map((line) => JSON.stringify(line)).join('\n'));
    const from = mock.requests.length;
    // The root client (no seller token of the run's own): one file for many sellers.
    const result = await cli(['--json', 'offers', 'update', '--file', file], {
      env: { ...env, PARTNER_API_SELLER_TOKEN: undefined },
    });
    expect(result.stderr).toBe('');
    const puts = mock.requests.slice(from).filter((request) => request.method === 'PUT');
    expect(puts.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${company}`,
      `Bearer ${company}`,
    ]);
    expect(puts.map((request) => request.body)).toEqual([{ price: 4990 }, { price: 5990 }]);
    expect(result.stdout).not.toContain(company);
  });

  it("names a JSON line's sellerToken when the service refuses it, the token never shown", async () => {
    const { course } = mock.products;
    const file = join(dir, 'offers-revoked-seller.jsonl');
    const line = {
      productHash: course.hash,
      offerCode: course.offerCode,
      params: { price: 4990 },
      sellerToken: 'tok_revoked_seller',
    };
    await writeFile(file, `${JSON.stringify(line)}\n`);
    const result = await cli(['--json', 'offers', 'update', '--file', file], {
      env: { ...env, PARTNER_API_SELLER_TOKEN: undefined },
    });
    expect(result.code).toBe(1);
    const [failed] = jsonLines(result.stdout).filter((record) => record.status === 'failed');
    expect(JSON.stringify(failed)).toContain("a --file line's sellerToken");
    expect(result.stdout + result.stderr).not.toContain('tok_revoked_seller');
  });

  it('refuses a JSON line whose sellerToken is not a string, naming the line, nothing sent', async () => {
    const { hash, offerCode } = mock.products.course;
    const file = join(dir, 'offers-bad-seller.jsonl');
    await writeFile(
      file,
      `${JSON.stringify({ productHash: hash, offerCode, params: { price: 1 }, sellerToken: 7 })}\n`,
    );
    const from = mock.stats.requests;
    const result = await cli(['--json', 'offers', 'update', '--file', file], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}:1: sellerToken`);
    expect(mock.stats.requests).toBe(from);
  });

  it('refuses a CSV column named __proto__ as any unknown field, naming the line, nothing sent', async () => {
    const { hash, offerCode } = mock.products.course;
    const file = join(dir, 'offers-proto.csv');
    await writeFile(
      file,
      `product_hash,offer_code,__proto__,price\n${hash},${offerCode},"{""price"":1}",2990\n`,
    );
    const from = mock.stats.requests;
    const result = await cli(['--json', 'offers', 'update', '--file', file], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}:2:`);
    expect(result.stderr).toContain('__proto__');
    expect(mock.stats.requests).toBe(from);
  });

  it('refuses a file that is not UTF-8 (an offer name saved as Latin-1), naming the line, nothing sent', async () => {
    const { hash, offerCode } = mock.products.course;
    // "Promoção" as a spreadsheet saves it in Windows-1252: sent as read, the name would reach the
    // service with replacement characters where the ç and ã were.
    const latin1 = Buffer.concat([
      Buffer.from(`product_hash,offer_code,name\n${hash},${offerCode},Promo`),
      Buffer.from([0xe7, 0xe3]),
      Buffer.from('o\n'),
    ]);
    const offers = join(dir, 'offers-latin1.csv');
    await writeFile(offers, latin1);
    const hashes = join(dir, 'hashes-latin1.txt');
    await writeFile(
      hashes,
      Buffer.concat([Buffer.from('trx_a1\ntrx_b'), Buffer.from([0xe9, 0x0a])]),
    );
    const from = mock.stats.requests;
    for (const [args, line] of [
      [['offers', 'update', '--file', offers], `${offers}:2:`],
      [['refunds', 'request', '--file', hashes], `${hashes}:2:`],
    ] as const) {
      const result = await cli(['--json', ...args], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(line);
      expect(result.stderr).toContain('not UTF-8');
    }
    expect(mock.stats.requests).toBe(from);
    // On stdin, read as the job goes, the bad line stops the job as any bad streamed line does.
    const piped = await cli(['--json', 'refunds', 'request', '--dry-run'], {
      env,
      input: Buffer.concat([Buffer.from('trx_a1\ntrx_b'), Buffer.from([0xe9, 0x0a])]),
    });
    expect(piped.code).toBe(4);
    expect(piped.stderr).toContain('stdin:2: not UTF-8');
  });

  it('reads --data @FILE, --data @- and a replayed file as UTF-8 text: a BOM and CRLF skipped, Latin-1 refused naming its line', async () => {
    const { hash, offerCode } = mock.products.course;
    const body = join(dir, 'offer-bom.json');
    await writeFile(body, `${BOM}{"price": 4990}\r\n`);
    for (const [data, input] of [
      [`@${body}`, undefined],
      ['@-', `${BOM}{"price": 4990}\r\n`],
    ] as const) {
      const result = await cli(['--json', 'offers', 'update', hash, offerCode, '--data', data], {
        env,
        input,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(jsonLines(result.stdout)[0]).toMatchObject({ price: 4990 });
    }
    const latin1 = join(dir, 'offer-latin1.json');
    await writeFile(
      latin1,
      Buffer.concat([
        Buffer.from('{\n"name": "Promo'),
        Buffer.from([0xe7, 0xe3]),
        Buffer.from('o"}\n'),
      ]),
    );
    const from = mock.stats.requests;
    const refused = await cli(
      ['--json', 'offers', 'update', hash, offerCode, '--data', `@${latin1}`],
      { env },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${latin1}:2: not UTF-8`);
    expect(mock.stats.requests).toBe(from);
    const received: string[] = [];
    const receiver = await startStub((request, res) => {
      received.push(request.body);
      res.writeHead(204).end();
    });
    try {
      const saved = join(dir, 'deliveries-bom.jsonl');
      await writeFile(saved, `${BOM}{"event":"a","data":{}}\r\n{"event":"b","data":{}}\r\n`);
      const replayed = await cli(['--json', 'webhooks', 'replay', saved, '--to', receiver.origin], {
        env,
      });
      expect(replayed.code, replayed.stderr).toBe(0);
      const piped = await cli(['--json', 'webhooks', 'replay', '-', '--to', receiver.origin], {
        env,
        input: `${BOM}{"event":"c","data":{}}\r\n`,
      });
      expect(piped.code, piped.stderr).toBe(0);
      expect(received.map((text) => JSON.parse(text).event)).toEqual(['a', 'b', 'c']);
    } finally {
      await receiver.close();
    }
  });

  it('keeps a character whole where two reads of a pipe split it (--data @- of 300 KB of CJK)', async () => {
    // 64 KiB reads: the first ends inside a three-byte character after a six-byte start.
    const text = '日本語'.repeat(33_000);
    const received: string[] = [];
    const receiver = await startStub((request, res) => {
      received.push(request.body);
      res.writeHead(204).end();
    });
    try {
      const result = await cli(
        ['--json', 'trigger', 'custom_event', '--to', receiver.origin, '--data', '@-'],
        {
          env,
          input: `{"d":"${text}"}`,
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(received).toHaveLength(1);
      expect(received[0]).not.toContain('\ufffd');
      expect(JSON.stringify(JSON.parse(received[0]!))).toContain(text);
    } finally {
      await receiver.close();
    }
  });

  it('a directory given as --file is a usage error naming it, exit 2, nothing sent', async () => {
    const from = mock.stats.requests;
    for (const args of [
      ['refunds', 'request', '--file', dir],
      ['offers', 'update', '--file', dir],
    ]) {
      const result = await cli(['--json', ...args], { env });
      expect(result.code).toBe(2);
      expect(JSON.parse(result.stderr).error).toMatchObject({ name: 'UsageError' });
      expect(result.stderr).toContain(`cannot read ${dir}`);
    }
    expect(mock.stats.requests).toBe(from);
  });
});
