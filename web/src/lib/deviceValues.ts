/**
 * The one state a device is drawn in, its readings against their limits and its service state.
 * How values, units and instants read lives in @/lib/units (shared with the message centre).
 */
import { isLifelong } from '@/lib/expiry';
import type { Device, Probe } from './api/devices';

export type ProbeKey = 't' | 'h';

export type ReadingState = 'above' | 'below' | 'normal' | 'none';

/** Where a reading stands against its probe's limits (compared in Celsius, as stored). */
export function readingState(value: number | null | undefined, probe: Probe | undefined): ReadingState {
  if (value === null || value === undefined) return 'none';
  if (probe?.upperLimit !== null && probe?.upperLimit !== undefined && value > probe.upperLimit) return 'above';
  if (probe?.lowerLimit !== null && probe?.lowerLimit !== undefined && value < probe.lowerLimit) return 'below';
  return 'normal';
}

export type DeviceState = 'scrapped' | 'disabled' | 'alarm' | 'online' | 'offline' | 'notEnabled';

/** What deviceState reads of a device. */
export type StateOf = Pick<Device, 'status' | 'alarmState' | 'online' | 'activatedAt' | 'scrappedAt'>;

/** The one state a device is drawn in: scrapped first (out of service), then disabled, alarming, online, never reported, offline. */
export function deviceState(device: StateOf): DeviceState {
  if (device.scrappedAt) return 'scrapped';
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
  scrapped: 'none',
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

/** How a device's marker is coloured on a map: alarming, online, or neither. */
export function markerTone(device: StateOf): 'alarm' | 'online' | 'offline' {
  const state = deviceState(device);
  return state === 'alarm' || state === 'online' ? state : 'offline';
}
