/**
 * The fleet pace's rule (`pace-rule.ts`) as Lua scripts, so that each step is one atomic round
 * trip whichever process runs it. Time is the Redis server's (`TIME`), so the processes' clocks
 * never need to agree. The state is one hash: `rate` (requests per second), `next` (when the next
 * slot is free), `until` (when the pause ends) and `updated` (when the rate last grew), all in
 * milliseconds of the server's clock; it expires after `ttlMs` unused. Replies are strings, since
 * Redis would cut a Lua number to an integer.
 *
 * @module
 */

import { Script } from './client';

const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local s = redis.call('HMGET', KEYS[1], 'rate', 'next', 'until', 'updated')
local rate = tonumber(s[1]) or tonumber(ARGV[1])
local nxt = tonumber(s[2]) or now
local pause = tonumber(s[3]) or 0
local updated = tonumber(s[4]) or now
`;

/**
 * Takes the next slot. ARGV: start rate, most, increase per second, time to live (ms).
 * Replies {wait before sending, pause left, rate}.
 */
export const TAKE = new Script(`${NOW}
if now > pause then
  local since = math.max(updated, pause)
  rate = math.min(tonumber(ARGV[2]), rate + tonumber(ARGV[3]) * (now - since) / 1000)
  updated = now
end
local slot = math.max(nxt, now, pause)
redis.call('HSET', KEYS[1], 'rate', rate, 'next', slot + 1000 / rate, 'until', pause, 'updated', updated)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {tostring(slot - now), tostring(math.max(0, pause - now)), tostring(rate)}
`);

/**
 * A 429: the first of a pause lowers the rate; every one holds the slots until its end.
 * ARGV: start rate, least, decrease factor, pause (ms), time to live (ms).
 * Replies {pause left, rate}.
 */
export const REFUSE = new Script(`${NOW}
if now >= pause then rate = math.max(tonumber(ARGV[2]), rate * tonumber(ARGV[3])) end
pause = math.max(pause, now + tonumber(ARGV[4]))
redis.call('HSET', KEYS[1], 'rate', rate, 'next', math.max(nxt, pause), 'until', pause, 'updated', updated)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {tostring(pause - now), tostring(rate)}
`);
