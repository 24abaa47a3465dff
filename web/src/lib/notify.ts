/** Toast notifications. Errors stay 4 s (spec seed 000 sections 8 and 9). */
import { Intent, OverlayToaster, Position, type IconName, type Toaster } from '@blueprintjs/core';

export const NOTIFY_MS = 4_000;
let toaster: Promise<Toaster> | null = null;
const ICONS: Partial<Record<Intent, IconName>> = {
  [Intent.DANGER]: 'error',
  [Intent.WARNING]: 'warning-sign',
  [Intent.SUCCESS]: 'tick-circle',
};

function get(): Promise<Toaster> {
  toaster ??= OverlayToaster.create({ position: Position.TOP, maxToasts: 4 });
  return toaster;
}

function show(intent: Intent, message: string, title?: string, timeout = NOTIFY_MS): void {
  void get().then((t) =>
    t.show({
      intent,
      timeout,
      message: title ? `${title}: ${message}` : message,
      icon: ICONS[intent] ?? 'info-sign',
    }),
  );
}

export const notify = {
  error: (message: string, title?: string) => show(Intent.DANGER, message, title),
  warning: (message: string, title?: string) => show(Intent.WARNING, message, title),
  success: (message: string) => show(Intent.SUCCESS, message, undefined, 3_000),
  info: (message: string) => show(Intent.PRIMARY, message, undefined, 3_000),
};
