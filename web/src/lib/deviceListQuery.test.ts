import { describe, expect, it } from 'vitest';
import {
  deviceQuery,
  detailHref,
  listHref,
  NO_FILTERS,
  pathOfScene,
  readFilters,
  rechargeHref,
  sceneOfRoute,
  writeFilters,
} from './deviceListQuery';

describe('the list address', () => {
  it('reads the filters of an address', () => {
    const filters = readFilters(new URLSearchParams('deviceName=+Cold+room+&status=online&service=expired&start=3&pageSize=20'));
    expect(filters).toEqual({ mode: 'list', deviceName: 'Cold room', status: 'online', service: 'expired', calibration: 'all', project: null,
      start: 3, pageSize: 20 });
  });

  it('reads anything unknown as no filter', () => {
    const filters = readFilters(new URLSearchParams('status=sleeping&service=soon&calibration=late&start=-2&pageSize=15'));
    expect(filters).toEqual(NO_FILTERS);
    for (const project of ['-1', '1.5', 'x', '', '2147483648', '1e30']) {
      expect(readFilters(new URLSearchParams({ project })).project).toBeNull();
    }
    expect(readFilters(new URLSearchParams('start=1.5')).start).toBe(1);
  });

  it('cuts a name to the 50 characters the server takes', () => {
    expect(readFilters(new URLSearchParams({ deviceName: 'x'.repeat(80) })).deviceName).toHaveLength(50);
  });

  it('writes only what differs from no filter, and reads it back', () => {
    expect(writeFilters(NO_FILTERS).toString()).toBe('');
    const filters = { mode: 'board', deviceName: 'Dock', status: 'alarm', service: 'expiring', calibration: 'due', project: 7, start: 2,
      pageSize: 40 } as const;
    expect(readFilters(writeFilters(filters))).toEqual(filters);
    expect(writeFilters({ ...filters, mode: 'map' }).get('mode')).toBe('map');
    expect(readFilters(new URLSearchParams('mode=globe')).mode).toBe('list');
    expect(readFilters(new URLSearchParams('project=0')).project).toBe(0); // devices in no project
    expect(deviceQuery(1, { ...NO_FILTERS, project: 0 })).toMatchObject({ projectId: 0 });
    expect(deviceQuery(1, NO_FILTERS)).not.toHaveProperty('projectId');
    expect(deviceQuery(1, { ...NO_FILTERS, calibration: 'due' })).toMatchObject({ calibrationDue: 1 });
    expect(deviceQuery(1, NO_FILTERS)).not.toHaveProperty('calibrationDue');
    expect(listHref('/device/list', { status: 'online' })).toBe('/device/list?status=online');
    expect(listHref('/device/list')).toBe('/device/list');
  });

  it('opens the expired dialog\'s links, which name only the device', () => {
    expect(readFilters(new URLSearchParams('deviceName=Vaccine%20fridge%20logger')).deviceName).toBe('Vaccine fridge logger');
  });
});

describe('the tabs', () => {
  it('maps routes to scenes and back', () => {
    expect(sceneOfRoute('deviceList')).toBe(1);
    expect(sceneOfRoute('storageList')).toBe(2);
    expect(sceneOfRoute('freezerList')).toBe(3);
    expect(sceneOfRoute(undefined)).toBe(1);
    expect(pathOfScene(3)).toBe('/device/list/freezer');
  });
});

describe('the page request', () => {
  it('only counts the devices in map mode, whose markers come from a call of their own', () => {
    expect(deviceQuery(1, { ...NO_FILTERS, mode: 'map', start: 4, status: 'alarm' })).toEqual({
      scene: 1, start: 1, pageSize: 1, alarm: 1,
    });
  });

  it('sends the tab, the page and only the filters set', () => {
    expect(deviceQuery(2, NO_FILTERS)).toEqual({ scene: 2, start: 1, pageSize: 10 });
    expect(deviceQuery(1, { ...NO_FILTERS, deviceName: 'Cold', start: 2 })).toEqual({
      scene: 1,
      start: 2,
      pageSize: 10,
      deviceName: 'Cold',
    });
  });

  it.each([
    ['online', { online: 1 }],
    ['offline', { online: 0 }],
    ['alarm', { alarm: 1 }],
    ['enabled', { status: 1 }],
    ['disabled', { status: 0 }],
    ['scrapped', { scrapped: 1 }],
  ] as const)('asks for %s devices', (status, fields) => {
    expect(deviceQuery(1, { ...NO_FILTERS, status })).toEqual({ scene: 1, start: 1, pageSize: 10, ...fields });
  });

  it('asks for the service state as vipState', () => {
    expect(deviceQuery(1, { ...NO_FILTERS, service: 'expiring' }).vipState).toBe(1);
    expect(deviceQuery(1, { ...NO_FILTERS, service: 'expired' }).vipState).toBe(2);
    expect(deviceQuery(1, NO_FILTERS)).not.toHaveProperty('vipState');
  });
});

describe('links', () => {
  it('opens the recharge screen the way the expired dialog does', () => {
    expect(rechargeHref([4, 9])).toBe('/consumer/recharge?deviceIds=4,9');
    expect(detailHref(5)).toBe('/device/detail/5');
    expect(detailHref(5, 'chart')).toBe('/device/detail/5?tab=chart');
  });
});
