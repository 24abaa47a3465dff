import { afterEach, describe, expect, it } from 'vitest';
import { nextStep, sessionProgress, type StepInput } from './sessionSteps';

const base: StepInput = { identityMissing: false, notice: 'none', noticeDone: false, reminderDone: false };

describe('nextStep', () => {
  it.each<[Partial<StepInput>, string]>([
    [{ identityMissing: true, notice: 'show' }, 'identity'],
    [{ identityMissing: true, notice: 'show', noticeDone: true, reminderDone: true }, 'identity'],
    [{ notice: 'loading' }, 'waiting'],
    [{ notice: 'show' }, 'notice'],
    [{ notice: 'none' }, 'reminder'],
    [{ notice: 'show', noticeDone: true }, 'reminder'],
    [{ notice: 'loading', noticeDone: true }, 'reminder'],
    [{ notice: 'show', noticeDone: true, reminderDone: true }, 'done'],
    [{ notice: 'none', reminderDone: true }, 'done'],
  ])('goes from %j to %s', (input, step) => {
    expect(nextStep({ ...base, ...input })).toBe(step);
  });
});

describe('sessionProgress', () => {
  afterEach(() => sessionProgress.reset());

  it('gives the reminder once per sign-in', () => {
    expect(sessionProgress.claimReminder('7:a')).toBe(true);
    expect(sessionProgress.claimReminder('7:a')).toBe(false);
    expect(sessionProgress.claimReminder('7:b')).toBe(true);
  });

  it('remembers a closed notice per sign-in', () => {
    sessionProgress.noticeDone('7:a');
    expect(sessionProgress.get('7:a').noticeDone).toBe(true);
    expect(sessionProgress.get('8:a').noticeDone).toBe(false);
  });
});
