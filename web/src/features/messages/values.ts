/**
 * How an alarm message reads: the probe's value in the device's unit and decimals, the kind of
 * excursion, the graded level's tone, the handling outcome, and the server's instants in the
 * user's language.
 */
import type { Intent } from '@blueprintjs/core';
import { ABOVE, BELOW, MAX_LEVEL, type Alarm, type TemperatureUnit } from './api/alarms';

/** What a missing value reads as. */
export const NO_VALUE = '—';
/** A device shows 0 to 4 decimals (its display precision). */
export const PRECISION_MAX = 4;

/** Celsius (as the server always sends it) in the device's unit: °F = °C × 9/5 + 32. */
export function toUnit(celsius: number, unit: TemperatureUnit): number {
  return unit === 'F' ? (celsius * 9) / 5 + 32 : celsius;
}

/** The unit a probe's value reads in: temperatures in °C or °F as the device shows them, humidity in % RH. */
export function unitOf(probe: string, unit: TemperatureUnit = 'C'): string {
  if (probe === 't') return unit === 'F' ? '°F' : '°C';
  if (probe === 'h') return '%RH';
  return '';
}

/** A display precision as drawn: 0-4 decimals, 1 when there is no sensible one. */
export function clampPrecision(precision: number): number {
  if (!Number.isFinite(precision)) return 1;
  return Math.min(PRECISION_MAX, Math.max(0, Math.round(precision)));
}

/**
 * A probe's value as the server sent it (temperatures in Celsius), in the device's unit with its
 * decimals and the unit's symbol; never "-0.0".
 */
export function formatValue(
  probe: string,
  value: number | null | undefined,
  unit: TemperatureUnit = 'C',
  precision = 1,
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE;
  const shown = probe === 't' ? toUnit(value, unit) : value;
  let fixed = shown.toFixed(clampPrecision(precision));
  if (/^-0(\.0+)?$/.test(fixed)) fixed = fixed.slice(1);
  const symbol = unitOf(probe, unit);
  return symbol ? `${fixed} ${symbol}` : fixed;
}

/** One of an alarm's values (the reading, the limit or the extreme) as its device shows it. */
export function alarmValue(
  alarm: Pick<Alarm, 'probe' | 'temperatureUnit' | 'displayPrecision'>,
  value: number | null | undefined,
): string {
  return formatValue(alarm.probe, value, alarm.temperatureUnit, alarm.displayPrecision);
}

/** The translation key of a probe's name. */
export function probeKey(probe: string): string {
  return probe === 't' || probe === 'h' ? `probe.${probe}` : 'probe.other';
}

/** The translation key of an excursion: above the upper or below the lower limit. */
export function kindKey(kind: number): string {
  if (kind === ABOVE) return 'kind.above';
  if (kind === BELOW) return 'kind.below';
  return 'kind.other';
}

/** The level as drawn: 0 none yet, 1-3 graded, anything else clamped. */
export function levelOf(alarm: Pick<Alarm, 'level'>): number {
  return Math.min(MAX_LEVEL, Math.max(0, Math.round(alarm.level)));
}

/** Graded levels grow more urgent: level 1 a warning, 2 and 3 dangers. */
export function levelIntent(level: number): Intent {
  if (level <= 0) return 'none';
  return level === 1 ? 'warning' : 'danger';
}

/** The translation key of a handling outcome (1 approve, 2 refuse, 3 defer). */
export function handlingKey(handling: number | null): string {
  switch (handling) {
    case 1:
      return 'handled.approved';
    case 2:
      return 'handled.refused';
    case 3:
      return 'handled.deferred';
    default:
      return 'handled.unknown';
  }
}

export function handlingIntent(handling: number | null): Intent {
  if (handling === 1) return 'success';
  if (handling === 2) return 'danger';
  if (handling === 3) return 'warning';
  return 'none';
}

/**
 * An instant as the server wrote it (ISO 8601 with the offset of the caller's time zone), in the
 * user's language: date and time to the second, 24-hour clock.
 */
export function formatInstant(iso: string | null | undefined, language: string): string {
  if (!iso) return NO_VALUE;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return NO_VALUE;
  return new Intl.DateTimeFormat(language, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(date);
}

/** Characters as the server counts them (code points, not UTF-16 units). */
export function lengthOf(text: string): number {
  return [...text].length;
}
