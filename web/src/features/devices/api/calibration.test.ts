import { describe, expect, it } from 'vitest';
import { dueState } from './calibration';

describe('a due date on the device detail', () => {
  it('is overdue after its day, due soon within the list filter\'s 30 days, valid later', () => {
    expect(dueState(null, '2026-11-27')).toBeNull();
    expect(dueState('2026-11-26', '2026-11-27')).toBe('overdue');
    expect(dueState('2026-11-27', '2026-11-27')).toBe('soon');
    expect(dueState('2026-12-27', '2026-11-27')).toBe('soon');
    expect(dueState('2026-12-28', '2026-11-27')).toBe('later');
    expect(dueState('2027-01-31', '2026-12-31')).toBe('later');
  });
});
