/**
 * Idle protection (spec seed 000 sections 4 and 9): for accounts with both `enableProtect` and
 * `enableFda` on, a 1-second timer checks inactivity; mouse, key, scroll and touch activity resets
 * it, at most once every 5 s; after 5 minutes without activity the session ends.
 *
 * The timing lives in `IdleTimer`, which takes its clock and interval functions from the caller so
 * tests can drive it with fake timers; `watchActivity` connects it to the browser's events.
 */

export const IDLE_TIMEOUT_MS = 300_000;
export const IDLE_CHECK_MS = 1_000;
export const ACTIVITY_THROTTLE_MS = 5_000;

/** The events that count as the user being present. */
export const ACTIVITY_EVENTS = ['mousemove', 'keydown', 'scroll', 'touchstart'] as const;

/** The two profile switches that together turn idle protection on. */
export interface IdleProtectionFlags {
  enableProtect: number;
  enableFda: number;
}

export function idleProtectionEnabled(flags: IdleProtectionFlags | null | undefined): boolean {
  return flags?.enableProtect === 1 && flags.enableFda === 1;
}

export interface IdleTimerOptions {
  timeoutMs?: number;
  checkMs?: number;
  throttleMs?: number;
  now?: () => number;
  setInterval?: (tick: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
}

export class IdleTimer {
  private readonly timeoutMs: number;
  private readonly checkMs: number;
  private readonly throttleMs: number;
  private readonly now: () => number;
  private readonly setTicker: (tick: () => void, ms: number) => unknown;
  private readonly clearTicker: (handle: unknown) => void;
  private handle: unknown = null;
  /** When activity last reset the countdown. */
  private lastReset = 0;
  /** Activity seen inside the throttle window, applied when the window closes. */
  private pendingAt: number | null = null;

  constructor(
    private readonly onIdle: () => void,
    options: IdleTimerOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? IDLE_TIMEOUT_MS;
    this.checkMs = options.checkMs ?? IDLE_CHECK_MS;
    this.throttleMs = options.throttleMs ?? ACTIVITY_THROTTLE_MS;
    this.now = options.now ?? (() => Date.now());
    this.setTicker = options.setInterval ?? ((tick, ms) => globalThis.setInterval(tick, ms));
    this.clearTicker =
      options.clearInterval ?? ((handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>));
  }

  get running(): boolean {
    return this.handle !== null;
  }

  start(): void {
    if (this.running) return;
    this.lastReset = this.now();
    this.pendingAt = null;
    this.handle = this.setTicker(() => this.check(), this.checkMs);
  }

  stop(): void {
    if (this.handle === null) return;
    this.clearTicker(this.handle);
    this.handle = null;
  }

  /** The user did something. Resets the countdown at most once per throttle window; activity
   * inside the window is remembered and counted when the window closes (like a trailing throttle). */
  activity(): void {
    if (!this.running) return;
    const at = this.now();
    if (at - this.lastReset >= this.throttleMs) {
      this.lastReset = at;
      this.pendingAt = null;
    } else {
      this.pendingAt = at;
    }
  }

  /** How long the user has been idle, as far as the timer knows. */
  idleFor(): number {
    return this.now() - this.lastReset;
  }

  private check(): void {
    const at = this.now();
    if (this.pendingAt !== null && at - this.lastReset >= this.throttleMs) {
      this.lastReset = this.pendingAt;
      this.pendingAt = null;
    }
    if (at - this.lastReset >= this.timeoutMs) {
      this.stop();
      this.onIdle();
    }
  }
}

type ActivityTarget = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

/** Feeds the timer from the activity events of `target`; returns the function that stops listening. */
export function watchActivity(target: ActivityTarget, timer: IdleTimer): () => void {
  const listener = () => timer.activity();
  // Capture so scrolling inside any scrollable panel counts, not only the page itself.
  const options: AddEventListenerOptions = { capture: true, passive: true };
  ACTIVITY_EVENTS.forEach((name) => target.addEventListener(name, listener, options));
  return () => ACTIVITY_EVENTS.forEach((name) => target.removeEventListener(name, listener, options));
}

/**
 * Starts idle protection when the profile asks for it and calls `onIdle` once after the timeout.
 * Returns the function that stops it, or null when protection is off (nothing was started).
 */
export function startIdleProtection(
  flags: IdleProtectionFlags | null | undefined,
  onIdle: () => void,
  options: IdleTimerOptions & { target?: ActivityTarget } = {},
): (() => void) | null {
  if (!idleProtectionEnabled(flags)) return null;
  const timer = new IdleTimer(onIdle, options);
  const unwatch = watchActivity(options.target ?? window, timer);
  timer.start();
  return () => {
    unwatch();
    timer.stop();
  };
}
