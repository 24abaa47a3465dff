/** The expired-service table's rules: type groups, the one-type selection, links and dates. */
import { mayChange } from '@/features/devices/access';
import {
  canSelect as canChoose,
  emptySelection,
  selectedTypeId,
  toggleSelection,
  type BatchSelection,
} from '@/features/recharge/batchSelection';
import type { ExpiredDevice } from './api/expired';

/** A table row; `groupSize` is the number of rows its type cell spans (0 below the group's first row). */
export interface GroupedRow {
  device: ExpiredDevice;
  groupSize: number;
}

function sameGroup(a: ExpiredDevice, b: ExpiredDevice): boolean {
  return a.deviceTypeName === b.deviceTypeName && a.typeId === b.typeId;
}

/** Consecutive rows of one device type form a group (the server sorts by type name). */
export function groupByType(devices: readonly ExpiredDevice[]): GroupedRow[] {
  const rows: GroupedRow[] = [];
  let first: GroupedRow | null = null;
  for (const device of devices) {
    if (first && sameGroup(first.device, device)) {
      first.groupSize += 1;
      rows.push({ device, groupSize: 0 });
    } else {
      first = { device, groupSize: 1 };
      rows.push(first);
    }
  }
  return rows;
}

/** The chosen devices, by id; all of one type (the batch rule of recharge/batchSelection.ts). */
export type Selection = BatchSelection<ExpiredDevice>;
export const EMPTY_SELECTION: Selection = emptySelection();
export { selectedTypeId };

/**
 * A device may be chosen while nothing is, or while the chosen ones are of its type; never one the
 * caller may only read (the server refuses its orders with 403).
 */
export function canSelect(selection: Selection, device: ExpiredDevice): boolean {
  return mayChange(device) && canChoose(selection, device.id, device);
}

/** Chooses the device, or un-chooses it when it is chosen; one that may not be chosen changes nothing. */
export function toggleDevice(selection: Selection, device: ExpiredDevice): Selection {
  if (!selection.has(device.id) && !canSelect(selection, device)) return selection;
  return toggleSelection(selection, device.id, device);
}

export function deviceListPath(deviceName: string): string {
  return `/device/list?${new URLSearchParams({ deviceName }).toString()}`;
}

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
