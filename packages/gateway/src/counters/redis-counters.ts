import { Redis } from 'ioredis';
import type { CounterResult, Counters } from './counters.js';
import { windowEnd } from './counters.js';

// One round trip: count the unit only while under the limit, and let the window expire with its period.
const TAKE = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current >= tonumber(ARGV[1]) then return -1 end
current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[2]) end
return current`;

/** Counters shared by every gateway through Redis (REDIS_URL). */
export class RedisCounters implements Counters {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    this.redis.defineCommand('porticoTake', { numberOfKeys: 1, lua: TAKE });
    this.redis.on('error', () => {
      // Reconnection is automatic; a failing take is refused below rather than crashing the gateway.
    });
  }

  async take(key: string, limit: number, periodMs: number): Promise<CounterResult> {
    const resetAt = windowEnd(Date.now(), periodMs);
    const redisKey = `portico:counter:${key}:${resetAt}`;
    const take = (this.redis as unknown as { porticoTake(k: string, l: number, e: number): Promise<number> })
      .porticoTake;
    const current = await take.call(this.redis, redisKey, limit, resetAt + 1000);
    if (current < 0) return { allowed: false, remaining: 0, resetAt };
    return { allowed: true, remaining: Math.max(limit - current, 0), resetAt };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
