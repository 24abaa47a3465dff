import { describe, expect, it } from 'vitest';
import type { Probe } from './api/devices';
import { device } from './testing';
import {
  clampPrecision,
  deviceState,
  formatNumber,
  formatProbe,
  fromUnit,
  probesOf,
  readingState,
  serviceState,
  toUnit,
  unitSymbol,
} from './values';

const limits: Probe = { probe: 't', upperLimit: 8, lowerLimit: 2, ruleEnabled: true };

describe('units and precision', () => {
  it('converts Celsius to Fahrenheit and back', () => {
    expect(toUnit(0, 'F')).toBe(32);
    expect(toUnit(100, 'F')).toBe(212);
    expect(toUnit(-40, 'F')).toBe(-40);
    expect(toUnit(3.8, 'C')).toBe(3.8);
    expect(fromUnit(212, 'F')).toBe(100);
    expect(fromUnit(5, 'C')).toBe(5);
  });

  it('shows the device\'s decimals, 0 to 4', () => {
    expect(formatNumber(3.14159, 0)).toBe('3');
    expect(formatNumber(3.14159, 2)).toBe('3.14');
    expect(formatNumber(3.14159, 4)).toBe('3.1416');
    expect(formatNumber(3.14159, 9)).toBe('3.1416');
    expect(formatNumber(3.14159, -1)).toBe('3');
    expect(clampPrecision(Number.NaN)).toBe(1);
  });

  it('never writes minus zero, and a dash for nothing', () => {
    expect(formatNumber(-0.04, 1)).toBe('0.0');
    expect(formatNumber(-0.4, 0)).toBe('0');
    expect(formatNumber(-0.06, 1)).toBe('-0.1');
    expect(formatNumber(null, 1)).toBe('—');
    expect(formatNumber(Number.NaN, 1)).toBe('—');
  });

  it('writes a probe\'s value in its unit with its symbol', () => {
    expect(formatProbe('t', 3.8, 'C', 1)).toBe('3.8 °C');
    expect(formatProbe('t', 3.8, 'F', 1)).toBe('38.8 °F');
    expect(formatProbe('h', 75.34, 'F', 1)).toBe('75.3 %RH'); // humidity is never converted
    expect(formatProbe('t', null, 'C', 1)).toBe('—');
    expect(unitSymbol('t', 'F')).toBe('°F');
  });
});

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
