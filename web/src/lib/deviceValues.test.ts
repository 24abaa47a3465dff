import { describe, expect, it } from 'vitest';
import type { Probe } from './api/devices';
import { device } from '@/test/devices';
import { deviceState, probesOf, readingState, serviceState } from './deviceValues';

const limits: Probe = { probe: 't', upperLimit: 8, lowerLimit: 2, ruleEnabled: true };

describe('states', () => {
  it('compares a reading with its limits', () => {
    expect(readingState(8.1, limits)).toBe('above');
    expect(readingState(1.9, limits)).toBe('below');
    expect(readingState(8, limits)).toBe('normal');
    expect(readingState(null, limits)).toBe('none');
    expect(readingState(99, { probe: 'h', upperLimit: null, lowerLimit: null, ruleEnabled: false })).toBe('normal');
  });

  it('draws one state per device: disabled, then alarm, online, never reported, offline', () => {
    expect(deviceState(device({ status: 0, alarmState: 1 }))).toBe('disabled');
    expect(deviceState(device({ alarmState: 1, online: 0 }))).toBe('alarm');
    expect(deviceState(device())).toBe('online');
    expect(deviceState(device({ online: 0, activatedAt: null }))).toBe('notEnabled');
    expect(deviceState(device({ online: 0 }))).toBe('offline');
  });

  it('reads the service state from vipInfo, lifelong from the year 2099', () => {
    expect(serviceState(device({ serviceExpiredDate: '2099-12-31', vipInfo: { state: 0 } }))).toBe('lifelong');
    expect(serviceState(device({ serviceExpiredDate: '2026-12-01', vipInfo: { state: 1 } }))).toBe('expiring');
    expect(serviceState(device({ serviceExpiredDate: '2026-11-01', vipInfo: { state: 2 } }))).toBe('expired');
    expect(serviceState(device({ serviceExpiredDate: '2027-06-10', vipInfo: { state: 0 } }))).toBe('active');
    expect(serviceState(device({ serviceExpiredDate: null }))).toBe('none');
  });

  it('puts temperature first', () => {
    const h: Probe = { probe: 'h', upperLimit: null, lowerLimit: null, ruleEnabled: false };
    expect(probesOf([h, limits]).map((p) => p.probe)).toEqual(['t', 'h']);
  });
});
