/**
 * Days as the FDA page's filters and reports take them: `yyyy-mm-dd` of the user's calendar, sent
 * as the instant the day starts in the user's zone, with its offset (a report's period must carry
 * one: the server refuses a bare time there).
 */
import { requestTimeZone } from '@/lib/http/index';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const isDay = (text: string): boolean => DAY.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`));

/** The day `days` after `day`. */
export function addDays(day: string, days: number): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** Days from the first to the last, both counted. */
export const daysBetween = (first: string, last: string): number =>
  Math.round((Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000) + 1;

/** The UTC offset of `timeZone` at `instant` (ms), as ISO 8601 writes it: "+02:00". */
function offsetAt(instant: number, timeZone: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(new Date(instant)).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-]\d{2}):?(\d{2})?/.exec(name);
  return match ? `${match[1]}:${match[2] ?? '00'}` : '+00:00';
}

const minutesOf = (offset: string) => (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));

/** The instant `day` starts in `timeZone`, with the zone's offset then: "2026-04-01T00:00:00+02:00". */
export function dayStartIn(day: string, timeZone: string): string {
  const wall = Date.parse(`${day}T00:00:00Z`);
  // the offset at the wall time read as UTC is a guess; read again at the instant it gives (a day
  // that starts next to a clock change)
  const guess = offsetAt(wall, timeZone);
  const offset = offsetAt(wall - minutesOf(guess) * 60_000, timeZone);
  return `${day}T00:00:00${offset}`;
}

/** From the start of `first` to the end of `last` (the next day's start); either may be left open. */
export function periodOf(first: string, last: string, timeZone = requestTimeZone()): { startTime?: string; endTime?: string } {
  return {
    ...(isDay(first) ? { startTime: dayStartIn(first, timeZone) } : {}),
    ...(isDay(last) ? { endTime: dayStartIn(addDays(last, 1), timeZone) } : {}),
  };
}

/** The last whole calendar month before `today` (a periodic report's usual period). */
export function lastMonth(today = new Date()): { first: string; last: string } {
  const first = new Date(Date.UTC(today.getFullYear(), today.getMonth() - 1, 1));
  const last = new Date(Date.UTC(today.getFullYear(), today.getMonth(), 0));
  return { first: first.toISOString().slice(0, 10), last: last.toISOString().slice(0, 10) };
}
