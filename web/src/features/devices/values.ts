/**
 * How device values read on screen (spec seed 001 section 9): 0-4 decimals as the device's display
 * precision says, temperatures in Celsius or Fahrenheit (the server always sends Celsius), humidity
 * in % RH; and the one state a device is drawn in.
 */
import { isLifelong } from '@/features/dialogs/expiredRows';
import type { Device, Probe, TemperatureUnit } from './api/devices';

export const PRECISION_MAX = 4;
/** What a missing value reads as. */
export const NO_VALUE = '—';

export type ProbeKey = 't' | 'h';

/** Celsius in the device's unit: F = C × 9/5 + 32. */
export function toUnit(celsius: number, unit: TemperatureUnit): number {
  return unit === 'F' ? (celsius * 9) / 5 + 32 : celsius;
}

/** A limit or value typed in the device's unit, back to Celsius. */
export function fromUnit(value: number, unit: TemperatureUnit): number {
  return unit === 'F' ? ((value - 32) * 5) / 9 : value;
}

export function clampPrecision(precision: number): number {
  if (!Number.isFinite(precision)) return 1;
  return Math.min(PRECISION_MAX, Math.max(0, Math.round(precision)));
}

/** A number with the device's decimals; a dash when there is none. */
export function formatNumber(value: number | null | undefined, precision: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE;
  const fixed = value.toFixed(clampPrecision(precision));
  return /^-0(\.0+)?$/.test(fixed) ? fixed.slice(1) : fixed; // never "-0.0"
}

export function unitSymbol(probe: string, unit: TemperatureUnit): string {
  if (probe === 'h') return '%RH';
  return unit === 'F' ? '°F' : '°C';
}

/** A probe's value (Celsius or % RH as the server sends it) in the device's unit, without the symbol. */
export function probeValue(probe: string, value: number | null | undefined, unit: TemperatureUnit): number | null {
  if (value === null || value === undefined) return null;
  return probe === 't' ? toUnit(value, unit) : value;
}

/** A probe's value as it reads: converted, with the device's decimals and its symbol. */
export function formatProbe(
  probe: string,
  value: number | null | undefined,
  unit: TemperatureUnit,
  precision: number,
): string {
  const converted = probeValue(probe, value, unit);
  if (converted === null) return NO_VALUE;
  return `${formatNumber(converted, precision)} ${unitSymbol(probe, unit)}`;
}

export type ReadingState = 'above' | 'below' | 'normal' | 'none';

/** Where a reading stands against its probe's limits (compared in Celsius, as stored). */
export function readingState(value: number | null | undefined, probe: Probe | undefined): ReadingState {
  if (value === null || value === undefined) return 'none';
  if (probe?.upperLimit !== null && probe?.upperLimit !== undefined && value > probe.upperLimit) return 'above';
  if (probe?.lowerLimit !== null && probe?.lowerLimit !== undefined && value < probe.lowerLimit) return 'below';
  return 'normal';
}

export type DeviceState = 'disabled' | 'alarm' | 'online' | 'offline' | 'notEnabled';

/** The one state a device is drawn in: disabled first, then alarming, online, never reported, offline. */
export function deviceState(device: Pick<Device, 'status' | 'alarmState' | 'online' | 'activatedAt'>): DeviceState {
  if (device.status === 0) return 'disabled';
  if (device.alarmState !== 0) return 'alarm';
  if (device.online === 1) return 'online';
  if (device.activatedAt === null) return 'notEnabled';
  return 'offline';
}

export const STATE_INTENT: Readonly<Record<DeviceState, 'success' | 'danger' | 'none' | 'warning'>> = {
  online: 'success',
  alarm: 'danger',
  offline: 'none',
  notEnabled: 'warning',
  disabled: 'none',
};

export type ServiceState = 'lifelong' | 'expiring' | 'expired' | 'active' | 'none';

/** The service's state from the server's vipInfo.state (1 expiring within 30 days, 2 expired). */
export function serviceState(device: Pick<Device, 'serviceExpiredDate' | 'vipInfo'>): ServiceState {
  const date = device.serviceExpiredDate;
  if (!date) return 'none';
  if (isLifelong(date)) return 'lifelong';
  if (device.vipInfo.state === 2) return 'expired';
  if (device.vipInfo.state === 1) return 'expiring';
  return 'active';
}

/** The probes a device reports, temperature first. */
export function probesOf(probes: readonly Probe[]): Probe[] {
  const order = (p: Probe) => (p.probe === 't' ? 0 : p.probe === 'h' ? 1 : 2);
  return [...probes].sort((a, b) => order(a) - order(b));
}

/** A server instant (ISO with offset) in the browser's time zone: `YYYY-MM-DD HH:mm:ss`. */
export function formatInstant(iso: string | null | undefined, language: string, withSeconds = true): string {
  if (!iso) return NO_VALUE;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return new Intl.DateTimeFormat(language, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    ...(withSeconds ? { second: '2-digit' } : {}),
    hour12: false,
  }).format(at);
}
