import { describe, expect, it } from 'vitest';
import { isoWithOffset, isRangeKey, maxPointsFor, QUICK_RANGES, rangeBounds, rangeMs } from './ranges';

describe('quick ranges', () => {
  it('offers the six ranges of the spec, shortest first', () => {
    expect(QUICK_RANGES.map((r) => r.key)).toEqual(['30m', '12h', '24h', '7d', '15d', '30d']);
    expect(rangeMs('30m')).toBe(30 * 60_000);
    expect(rangeMs('30d')).toBe(30 * 86_400_000);
    expect(isRangeKey('7d')).toBe(true);
    expect(isRangeKey('1y')).toBe(false);
  });

  it('ends a range now, to the second, and starts it its length before', () => {
    const now = new Date(Date.UTC(2026, 10, 22, 5, 30, 12, 789));
    const bounds = rangeBounds('7d', now);
    expect(bounds.endMs).toBe(Date.UTC(2026, 10, 22, 5, 30, 12));
    expect(bounds.endMs - bounds.startMs).toBe(7 * 86_400_000);
    expect(Date.parse(bounds.endTime)).toBe(bounds.endMs);
    expect(Date.parse(bounds.startTime)).toBe(bounds.startMs);
  });

  it('writes instants with their UTC offset, as the server requires', () => {
    const text = isoWithOffset(new Date(Date.UTC(2026, 4, 1, 0, 0, 0)));
    expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    expect(Date.parse(text)).toBe(Date.UTC(2026, 4, 1, 0, 0, 0));
  });
});

describe('points for a chart width', () => {
  it('asks for two a pixel of a rounded width, between 200 and the server\'s 5000', () => {
    expect(maxPointsFor(0)).toBe(400);
    expect(maxPointsFor(1000)).toBe(2000);
    expect(maxPointsFor(1001)).toBe(2400);
    expect(maxPointsFor(1050)).toBe(maxPointsFor(1150)); // a small resize asks nothing new
    expect(maxPointsFor(10_000)).toBe(5000);
  });
});
