/**
 * The chart's quick time ranges (spec seed 001 section 9: half an hour, 12 and 24 hours, 7, 15 and
 * 30 days) and how many points to ask for: two a pixel of the chart's width, since the server
 * keeps each bucket's minimum and maximum.
 */
import { HISTORY_MAX_POINTS } from './api/history';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const QUICK_RANGES = [
  { key: '30m', ms: 30 * MINUTE },
  { key: '12h', ms: 12 * HOUR },
  { key: '24h', ms: 24 * HOUR },
  { key: '7d', ms: 7 * DAY },
  { key: '15d', ms: 15 * DAY },
  { key: '30d', ms: 30 * DAY },
] as const;
export type RangeKey = (typeof QUICK_RANGES)[number]['key'];
export const DEFAULT_RANGE: RangeKey = '24h';

export function isRangeKey(value: unknown): value is RangeKey {
  return QUICK_RANGES.some((range) => range.key === value);
}

export function rangeMs(key: RangeKey): number {
  return QUICK_RANGES.find((range) => range.key === key)?.ms ?? DAY;
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** An instant in the browser's time zone with its offset, e.g. `2026-05-01T08:00:00+08:00`. */
export function isoWithOffset(at: Date): string {
  const offset = -at.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const date = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  return `${date}T${time}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

export interface Bounds {
  startTime: string;
  endTime: string;
  /** The same instants in epoch milliseconds, for the chart's axis. */
  startMs: number;
  endMs: number;
}

/** A quick range ending now (to the second). */
export function rangeBounds(key: RangeKey, now: Date = new Date()): Bounds {
  const endMs = Math.floor(now.getTime() / 1000) * 1000;
  const startMs = endMs - rangeMs(key);
  return { startTime: isoWithOffset(new Date(startMs)), endTime: isoWithOffset(new Date(endMs)), startMs, endMs };
}

export const MIN_POINTS = 200;
/** Widths are rounded to this step, so a small resize does not ask again. */
export const WIDTH_STEP = 200;

/** Points for a chart `width` CSS pixels wide: two a pixel of a rounded width, between 200 and 5000. */
export function maxPointsFor(width: number): number {
  const rounded = Math.max(WIDTH_STEP, Math.ceil(width / WIDTH_STEP) * WIDTH_STEP);
  return Math.min(HISTORY_MAX_POINTS, Math.max(MIN_POINTS, rounded * 2));
}
