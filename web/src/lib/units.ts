/**
 * How device values read on screen, wherever they are shown (spec seed 001 section 9): 0-4 decimals
 * as the device's display precision says, temperatures in Celsius or Fahrenheit (the server always
 * sends Celsius), humidity in % RH; and the server's instants in the user's language.
 */

/** How a device shows temperatures; the server always sends them in Celsius. */
export const TEMPERATURE_UNITS = ['C', 'F'] as const;
export type TemperatureUnit = (typeof TEMPERATURE_UNITS)[number];

/** A device shows 0 to 4 decimals (its display precision). */
export const PRECISION_MAX = 4;
/** What a missing value reads as. */
export const NO_VALUE = '—';

/** Celsius in the device's unit: °F = °C × 9/5 + 32. */
export function toUnit(celsius: number, unit: TemperatureUnit): number {
  return unit === 'F' ? (celsius * 9) / 5 + 32 : celsius;
}

/** A limit or value typed in the device's unit, back to Celsius. */
export function fromUnit(value: number, unit: TemperatureUnit): number {
  return unit === 'F' ? ((value - 32) * 5) / 9 : value;
}

/** A display precision as drawn: 0-4 decimals, 1 when there is no sensible one. */
export function clampPrecision(precision: number): number {
  if (!Number.isFinite(precision)) return 1;
  return Math.min(PRECISION_MAX, Math.max(0, Math.round(precision)));
}

/** A number with the device's decimals; a dash when there is none; never "-0.0". */
export function formatNumber(value: number | null | undefined, precision: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE;
  const fixed = value.toFixed(clampPrecision(precision));
  return /^-0(\.0+)?$/.test(fixed) ? fixed.slice(1) : fixed;
}

/** The unit a probe's value reads in: temperatures in °C or °F as the device shows them, humidity in % RH. */
export function unitSymbol(probe: string, unit: TemperatureUnit = 'C'): string {
  if (probe === 't') return unit === 'F' ? '°F' : '°C';
  if (probe === 'h') return '%RH';
  return '';
}

/** A probe's value (Celsius or % RH as the server sends it) in the device's unit, without the symbol. */
export function probeValue(probe: string, value: number | null | undefined, unit: TemperatureUnit): number | null {
  if (value === null || value === undefined) return null;
  return probe === 't' ? toUnit(value, unit) : value;
}

/**
 * A probe's value as the server sent it (temperatures in Celsius), in the device's unit with its
 * decimals and the unit's symbol; a dash when there is none.
 */
export function formatValue(
  probe: string,
  value: number | null | undefined,
  unit: TemperatureUnit = 'C',
  precision = 1,
): string {
  const shown = probeValue(probe, value, unit);
  if (shown === null || !Number.isFinite(shown)) return NO_VALUE;
  const fixed = formatNumber(shown, precision);
  const symbol = unitSymbol(probe, unit);
  return symbol ? `${fixed} ${symbol}` : fixed;
}

/**
 * An instant as the server wrote it (ISO 8601 with an offset), in the browser's time zone and the
 * user's language: date and time (to the second unless told otherwise), 24-hour clock.
 */
export function formatInstant(iso: string | null | undefined, language: string, withSeconds = true): string {
  if (!iso) return NO_VALUE;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return NO_VALUE;
  return new Intl.DateTimeFormat(language, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    ...(withSeconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
  }).format(at);
}

/**
 * An instant as a signer saw it (a signature's manifestation, 21 CFR 11.50): date and time in the
 * signer's IANA zone with its offset, and the zone's name, e.g. ["01.05.2026, 09:00:00 GMT+2",
 * "Europe/Berlin"]. `local` (the same instant written with the zone's offset) is shown as it is
 * when the browser does not know the zone.
 */
export function inZone(iso: string, timeZone: string, language: string, local?: string): [string, string] {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return [local ?? NO_VALUE, timeZone];
  try {
    const text = new Intl.DateTimeFormat(language, {
      year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
      hourCycle: 'h23', timeZone, timeZoneName: 'shortOffset',
    }).format(at);
    return [text, timeZone];
  } catch {
    return [(local ?? iso).replace('T', ' '), timeZone];
  }
}

/** inZone as one line: "01.05.2026, 09:00:00 GMT+2 (Europe/Berlin)". */
export function formatInZone(iso: string, timeZone: string, language: string, local?: string): string {
  const [when, zone] = inZone(iso, timeZone, language, local);
  return `${when} (${zone})`;
}

/**
 * A period of whole days as the server wrote it (its start and the start of the day after its
 * last, in the reader's zone): the first and last day, e.g. "01.04.2026 – 30.04.2026". The days
 * are read from the text, so they are the days the period was asked for, whatever the browser's zone.
 */
export function formatDays(startIso: string, endIso: string, language: string): string {
  const day = (iso: string) => (/^\d{4}-\d{2}-\d{2}/.exec(iso)?.[0] ?? null);
  const first = day(startIso);
  const next = day(endIso);
  if (!first || !next) return NO_VALUE;
  const midnight = /T00:00(:00(\.0+)?)?/.test(endIso);
  const last = new Date(`${next}T00:00:00Z`);
  if (midnight) last.setUTCDate(last.getUTCDate() - 1);
  const format = new Intl.DateTimeFormat(language, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' });
  return `${format.format(new Date(`${first}T00:00:00Z`))} – ${format.format(last)}`;
}
