import { describe, expect, it } from 'vitest';
import type { ExpiredDevice } from '@/lib/api/expired';
import { daysUntil, expiryTone, isLifelong, localToday } from '@/lib/expiry';
import { canSelect, deviceListPath, EMPTY_SELECTION, groupByType, selectedTypeId, toggleDevice } from './expiredRows';

const device = (id: number, typeId: number, deviceTypeName: string, access = 2): ExpiredDevice => ({
  id,
  typeId,
  deviceTypeName,
  deviceName: `Device ${id}`,
  deviceGuid: `GUID${id}`,
  serviceExpiredDate: '2026-05-01',
  access,
});

const a1 = device(1, 10, 'Logger');
const a2 = device(2, 10, 'Logger');
const a3 = device(3, 10, 'Logger');
const b1 = device(4, 20, 'Freezer');
const c1 = device(5, 30, 'Room');

describe('groupByType', () => {
  it('gives the first row of each run of one type the size of its group', () => {
    expect(groupByType([a1, a2, a3, b1, c1]).map((row) => row.groupSize)).toEqual([3, 0, 0, 1, 1]);
  });

  it('starts a new group when a type comes back after another', () => {
    expect(groupByType([a1, b1, a2]).map((row) => row.groupSize)).toEqual([1, 1, 1]);
  });

  it('keeps two types that share a name apart', () => {
    expect(groupByType([a1, device(9, 11, 'Logger')]).map((row) => row.groupSize)).toEqual([1, 1]);
  });

  it('returns nothing for no rows', () => {
    expect(groupByType([])).toEqual([]);
  });
});

describe('the one-type selection', () => {
  it('lets any device be chosen first', () => {
    expect(selectedTypeId(EMPTY_SELECTION)).toBeNull();
    expect([a1, b1, c1].every((d) => canSelect(EMPTY_SELECTION, d))).toBe(true);
  });

  it('then only devices of the same type', () => {
    const chosen = toggleDevice(EMPTY_SELECTION, a1);
    expect(selectedTypeId(chosen)).toBe(10);
    expect(canSelect(chosen, a2)).toBe(true);
    expect(canSelect(chosen, b1)).toBe(false);
    expect(toggleDevice(chosen, b1)).toEqual(chosen);
  });

  it('frees every type again once nothing is chosen', () => {
    const none = toggleDevice(toggleDevice(EMPTY_SELECTION, a1), a1);
    expect(none.size).toBe(0);
    expect(canSelect(none, b1)).toBe(true);
  });

  it('never takes a device the caller may only read, even of the chosen type', () => {
    const readOnly = device(6, 10, 'Logger', 1);
    expect(canSelect(EMPTY_SELECTION, readOnly)).toBe(false);
    expect(toggleDevice(EMPTY_SELECTION, readOnly)).toBe(EMPTY_SELECTION);
    const chosen = toggleDevice(EMPTY_SELECTION, a1);
    expect(canSelect(chosen, readOnly)).toBe(false);
    expect(toggleDevice(chosen, readOnly)).toBe(chosen);
  });

  it('does not change the selection it was given', () => {
    const chosen = toggleDevice(EMPTY_SELECTION, a1);
    toggleDevice(chosen, a2);
    expect([...chosen.keys()]).toEqual([1]);
  });
});

describe('links', () => {
  it('opens the device list filtered by the device name', () => {
    expect(deviceListPath('Cold room B logger')).toBe('/device/list?deviceName=Cold+room+B+logger');
    expect(new URLSearchParams(deviceListPath('A&B=C').split('?')[1]).get('deviceName')).toBe('A&B=C');
  });
});

describe('dates', () => {
  it('counts whole days, negative once expired', () => {
    expect(daysUntil('2026-03-01', '2026-02-27')).toBe(2);
    expect(daysUntil('2026-02-27', '2026-02-27')).toBe(0);
    expect(daysUntil('2026-02-12', '2026-02-27')).toBe(-15);
  });

  it('writes today as the server does', () => {
    expect(localToday(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
  });
});

describe('expiry tone', () => {
  it.each([
    ['2026-02-26', 'expired'],
    ['2026-02-27', 'soon'],
    ['2026-03-29', 'soon'],
    ['2026-03-30', 'later'],
    ['2099-12-31', 'lifelong'],
    ['2150-01-01', 'lifelong'],
  ])('%s is %s on 2026-02-27', (date, tone) => {
    expect(expiryTone(date, '2026-02-27')).toBe(tone);
  });

  it('knows lifelong service', () => {
    expect(isLifelong('2099-01-01')).toBe(true);
    expect(isLifelong('2098-12-31')).toBe(false);
  });
});
