import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACTIVITY_EVENTS,
  ACTIVITY_THROTTLE_MS,
  IDLE_CHECK_MS,
  IDLE_TIMEOUT_MS,
  IdleTimer,
  idleProtectionEnabled,
  startIdleProtection,
} from './idle';

const on = { enableProtect: 1, enableFda: 1 };

describe('idle protection switches', () => {
  it.each([
    [{ enableProtect: 1, enableFda: 1 }, true],
    [{ enableProtect: 1, enableFda: 0 }, false],
    [{ enableProtect: 0, enableFda: 1 }, false],
    [{ enableProtect: 0, enableFda: 0 }, false],
    [null, false],
    [undefined, false],
  ])('is on for %j only when both flags are 1: %s', (flags, expected) => {
    expect(idleProtectionEnabled(flags)).toBe(expected);
  });

  it('uses the spec constants', () => {
    expect([IDLE_TIMEOUT_MS, IDLE_CHECK_MS, ACTIVITY_THROTTLE_MS]).toEqual([300_000, 1_000, 5_000]);
    expect(ACTIVITY_EVENTS).toEqual(['mousemove', 'keydown', 'scroll', 'touchstart']);
  });
});

describe('IdleTimer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires exactly once, at five minutes without activity', () => {
    const onIdle = vi.fn();
    const timer = new IdleTimer(onIdle);
    timer.start();
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS - IDLE_CHECK_MS);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(IDLE_CHECK_MS);
    expect(onIdle).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS * 3);
    expect(onIdle).toHaveBeenCalledTimes(1);
    expect(timer.running).toBe(false);
  });

  it('checks once a second', () => {
    const setInterval = vi.fn(() => 7);
    new IdleTimer(() => {}, { setInterval }).start();
    expect(setInterval).toHaveBeenCalledWith(expect.any(Function), 1_000);
  });

  it('restarts the countdown on activity', () => {
    const onIdle = vi.fn();
    const timer = new IdleTimer(onIdle);
    timer.start();
    vi.advanceTimersByTime(200_000);
    timer.activity();
    vi.advanceTimersByTime(200_000);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('takes activity into account at most once per five seconds', () => {
    let now = 0;
    const timer = new IdleTimer(() => {}, { now: () => now, setInterval: () => 1, clearInterval: () => {} });
    timer.start();
    now = 1_000;
    timer.activity();
    expect(timer.idleFor()).toBe(1_000); // inside the window: not yet counted
    now = 5_000;
    timer.activity();
    expect(timer.idleFor()).toBe(0); // the window has closed: counted
    now = 7_000;
    timer.activity();
    expect(timer.idleFor()).toBe(2_000);
  });

  it('counts activity seen inside the throttle window when the window closes', () => {
    const onIdle = vi.fn();
    const timer = new IdleTimer(onIdle);
    timer.start();
    vi.advanceTimersByTime(2_000);
    timer.activity(); // at 2 s, inside the first window: applied at the 5 s check
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 1_000); // 301 s: only 299 s since the activity at 2 s
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('does not fire early when activity keeps coming inside the window', () => {
    const onIdle = vi.fn();
    const timer = new IdleTimer(onIdle);
    timer.start();
    for (let second = 1; second <= 600; second += 1) {
      vi.advanceTimersByTime(1_000);
      timer.activity();
    }
    expect(onIdle).not.toHaveBeenCalled();
  });

  it('ignores activity before start and after stop', () => {
    const onIdle = vi.fn();
    const timer = new IdleTimer(onIdle);
    timer.activity();
    timer.start();
    timer.stop();
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS * 2);
    expect(onIdle).not.toHaveBeenCalled();
  });
});

describe('startIdleProtection', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    { enableProtect: 0, enableFda: 1 },
    { enableProtect: 1, enableFda: 0 },
    { enableProtect: 0, enableFda: 0 },
  ])('starts nothing when a flag is off (%j)', (flags) => {
    const onIdle = vi.fn();
    const target = new EventTarget();
    const listen = vi.spyOn(target, 'addEventListener');
    expect(startIdleProtection(flags, onIdle, { target })).toBeNull();
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS * 2);
    expect(onIdle).not.toHaveBeenCalled();
    expect(listen).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resets on each kind of activity event and logs out once after five idle minutes', () => {
    const onIdle = vi.fn();
    const target = new EventTarget();
    const stop = startIdleProtection(on, onIdle, { target });
    expect(stop).not.toBeNull();
    for (const name of ACTIVITY_EVENTS) {
      vi.advanceTimersByTime(250_000);
      target.dispatchEvent(new Event(name));
    }
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS);
    expect(onIdle).toHaveBeenCalledTimes(1);
    stop?.();
  });

  it('stops listening and counting when stopped', () => {
    const onIdle = vi.fn();
    const target = new EventTarget();
    const unlisten = vi.spyOn(target, 'removeEventListener');
    const stop = startIdleProtection(on, onIdle, { target });
    stop?.();
    expect(unlisten).toHaveBeenCalledTimes(ACTIVITY_EVENTS.length);
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS * 2);
    expect(onIdle).not.toHaveBeenCalled();
  });
});
