/** Service expiry dates as the server writes them (`YYYY-MM-DD`): today, days left, how urgent. */
/** Today in the browser's time zone, as the server writes dates (`YYYY-MM-DD`). */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Whole days from `today` to `date` (both `YYYY-MM-DD`): negative once expired. */
export function daysUntil(date: string, today: string): number {
  const parse = (text: string) => Date.parse(`${text.slice(0, 10)}T00:00:00Z`);
  return Math.round((parse(date) - parse(today)) / 86_400_000);
}

/** Service until the year 2099 or later is lifelong (spec seed 000 section 4). */
export function isLifelong(date: string): boolean {
  return Number(date.slice(0, 4)) >= 2099;
}

export type ExpiryTone = 'expired' | 'soon' | 'later' | 'lifelong';

/** How urgent an expiry date is: expired, within 30 days, later, or never. */
export function expiryTone(date: string, today: string): ExpiryTone {
  if (isLifelong(date)) return 'lifelong';
  const days = daysUntil(date, today);
  if (days < 0) return 'expired';
  return days <= 30 ? 'soon' : 'later';
}
