import { describe, expect, it } from 'vitest';
import {
  alarmQuery,
  isDay,
  isFiltered,
  messagesHref,
  nextDay,
  NO_FILTERS,
  rangeIsValid,
  readFilters,
  writeFilters,
} from './listQuery';

describe('the message centre’s address', () => {
  it('reads no filter from a plain address', () => {
    expect(readFilters(new URLSearchParams())).toEqual(NO_FILTERS);
    expect(writeFilters(NO_FILTERS).toString()).toBe('');
    expect(messagesHref()).toBe('/message/list');
  });

  it('round-trips every filter', () => {
    const filters = {
      state: 'untreated' as const,
      deviceId: 12,
      deviceName: 'Vaccine fridge logger',
      from: '2026-05-01',
      to: '2026-05-31',
      start: 3,
      pageSize: 20,
    };
    const params = writeFilters(filters);
    expect(params.toString()).toBe(
      'state=0&deviceId=12&device=Vaccine+fridge+logger&from=2026-05-01&to=2026-05-31&start=3&pageSize=20',
    );
    expect(readFilters(params)).toEqual(filters);
    expect(messagesHref({ state: 'treated' })).toBe('/message/list?state=1');
  });

  it('keeps the deferred alarms (state 2) apart', () => {
    expect(messagesHref({ state: 'deferred' })).toBe('/message/list?state=2');
    expect(readFilters(new URLSearchParams('state=2')).state).toBe('deferred');
    expect(alarmQuery({ ...NO_FILTERS, state: 'deferred' })).toEqual({ start: 1, pageSize: 10, state: 2 });
    expect(readFilters(new URLSearchParams('state=3')).state).toBe('all');
  });

  it('reads anything unknown or out of range as no filter', () => {
    const filters = readFilters(
      new URLSearchParams('state=9&deviceId=-1&device=x&from=2026-02-30&to=yesterday&start=0&pageSize=15'),
    );
    expect(filters).toEqual(NO_FILTERS);
    expect(readFilters(new URLSearchParams('deviceId=99999999999')).deviceId).toBeNull();
    expect(readFilters(new URLSearchParams('deviceId=1.5')).deviceId).toBeNull();
  });

  it('knows real days', () => {
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2023-02-29')).toBe(false);
    expect(isDay('2026-13-01')).toBe(false);
    expect(isDay('26-01-01')).toBe(false);
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(nextDay('2024-02-28')).toBe('2024-02-29');
  });

  it('asks the server for whole days of the caller’s time zone, the last one included', () => {
    expect(alarmQuery({ ...NO_FILTERS, state: 'treated', deviceId: 5, from: '2026-05-01', to: '2026-05-03' })).toEqual({
      start: 1,
      pageSize: 10,
      state: 1,
      deviceId: 5,
      startTime: '2026-05-01T00:00:00',
      endTime: '2026-05-04T00:00:00',
    });
    expect(alarmQuery({ ...NO_FILTERS, state: 'untreated' })).toEqual({ start: 1, pageSize: 10, state: 0 });
    expect(alarmQuery(NO_FILTERS)).toEqual({ start: 1, pageSize: 10 });
  });

  it('says when a range is backwards and when anything narrows the list', () => {
    expect(rangeIsValid({ from: '2026-05-02', to: '2026-05-01' })).toBe(false);
    expect(rangeIsValid({ from: '2026-05-01', to: '2026-05-01' })).toBe(true);
    expect(rangeIsValid({ from: '', to: '2026-05-01' })).toBe(true);
    expect(isFiltered(NO_FILTERS)).toBe(false);
    expect(isFiltered({ ...NO_FILTERS, start: 4, pageSize: 40 })).toBe(false);
    expect(isFiltered({ ...NO_FILTERS, to: '2026-05-01' })).toBe(true);
  });
});
