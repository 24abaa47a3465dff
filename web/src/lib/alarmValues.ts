/**
 * How an alarm message reads: its values in the device's unit and decimals, the kind of excursion,
 * the graded level's tone and the handling outcome. Units, values and instants come from @/lib/units.
 */
import type { Intent } from '@blueprintjs/core';
import { formatValue } from '@/lib/units';
import { ABOVE, BELOW, DEFER_CHOICES, MAX_LEVEL, type Alarm } from './api/alarms';

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

type T = (key: string, options?: Record<string, unknown>) => string;

/** A deferral's delay in words: one of the choices offered, else its minutes (another client's). */
export function delayText(t: T, minutes: number): string {
  return (DEFER_CHOICES as readonly number[]).includes(minutes) ? t(`defer.choice.${minutes}`) : t('defer.minutes', { count: minutes });
}

/** Characters as the server counts them (code points, not UTF-16 units). */
export function lengthOf(text: string): number {
  return [...text].length;
}
