/**
 * The fleet pace when Redis answers a process late (a loaded machine, a busy server): the pause it
 * hears of is the pause Redis holds, whatever the round trip took. A slot this process took before
 * the pause, falling inside it, waits the pause out as Redis counts it, not a pause ended early
 * by the time the command spent on its way.
 */

import { describe, expect, it } from 'vitest';
import { fleetPace, type RedisClient } from '../../src/redis/index';
import { libraries, sendCommand } from '../helpers/redis-libraries';
import { useRedisServer } from '../helpers/redis-server';

/** How long the slow process's commands take to reach Redis, once it is made slow. */
const ON_THE_WAY_MS = 300;
/** Slots this far apart: a slot taken before the pause falls well inside it. */
const RATE = 1.25;
const PAUSE_MS = 1_000;

const redis = useRedisServer();

/** `client` whose commands, once `slow.on` is set, reach Redis `ON_THE_WAY_MS` late. */
function delayed(client: RedisClient, slow: { on: boolean }): RedisClient {
  const late = () =>
    slow.on ? new Promise((resolve) => setTimeout(resolve, ON_THE_WAY_MS)) : Promise.resolve();
  if ('call' in client) {
    return {
      async call(command, ...args) {
        await late();
        return client.call(command, ...args);
      },
    };
  }
  return {
    async sendCommand(args) {
      await late();
      return client.sendCommand(args);
    },
  };
}

describe.each(libraries)('fleetPace over $name, Redis answering late', (library) => {
  it('a slot taken before a pause waits until the pause Redis holds has ended', async () => {
    const connection = await library.connect(redis.url);
    const prefix = `slow-answer-${library.name}:`;
    const options = { prefix, requestsPerSecond: RATE, increasePerSecond: 0.001 };
    const peer = { key: 'the fleet', warn: () => undefined };
    const slow = { on: false };
    const other = fleetPace(connection.client, options).forClient(peer);
    const late = fleetPace(delayed(connection.client, slow), options).forClient(peer);
    try {
      const start = Date.now();
      await other.acquire(undefined);
      // This process takes the next slot, 1 / RATE ahead, before anyone heard of a pause.
      const early = late.acquire(undefined).then(() => Date.now());
      await expect.poll(() => sendCommand(connection, ['KEYS', `${prefix}*`])).toHaveLength(1);
      const [key] = (await sendCommand(connection, ['KEYS', `${prefix}*`])) as string[];
      await expect
        .poll(async () => Number(await sendCommand(connection, ['HGET', key!, 'next'])))
        .toBeGreaterThan(start + 1.5 * (1_000 / RATE));
      // Its next command is on its way when another process pauses the fleet.
      slow.on = true;
      const next = late.acquire(undefined);
      other.refused(PAUSE_MS);
      await expect
        .poll(async () => Number(await sendCommand(connection, ['HGET', key!, 'until'])))
        .toBeGreaterThan(0);
      const until = Number(await sendCommand(connection, ['HGET', key!, 'until']));
      expect(await early).toBeGreaterThanOrEqual(until);
      await next;
    } finally {
      slow.on = false;
      await connection.close();
    }
  }, 30_000);
});
