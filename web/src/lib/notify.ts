/** Toast notifications. Errors stay 4 s (spec seed 000 sections 8 and 9). */
import { Intent, OverlayToaster, Position, type Toaster } from '@blueprintjs/core';
import { ErrorIcon, InfoSignIcon, TickCircleIcon, WarningSignIcon } from '@blueprintjs/icons';
import { createElement, type JSX } from 'react';

export const NOTIFY_MS = 4_000;
let toaster: { container: HTMLElement; instance: Promise<Toaster> } | null = null;
const ICONS: Partial<Record<Intent, JSX.Element>> = {
  [Intent.DANGER]: createElement(ErrorIcon),
  [Intent.WARNING]: createElement(WarningSignIcon),
  [Intent.SUCCESS]: createElement(TickCircleIcon),
};

/** The toaster, made again when its element has left the page (the unit tests empty it between files). */
function get(): Promise<Toaster> {
  if (!toaster?.container.isConnected) {
    const container = document.body.appendChild(document.createElement('div'));
    toaster = { container, instance: OverlayToaster.create({ position: Position.TOP, maxToasts: 4 }, { container }) };
  }
  return toaster.instance;
}

/**
 * One toast per message: the same text shown again while its toast is on screen (several calls
 * failing alike, a button pressed again) updates that toast instead of stacking a copy under it;
 * once it has gone, the next one shows afresh.
 */
function show(intent: Intent, message: string, title?: string, timeout = NOTIFY_MS): void {
  const text = title ? `${title}: ${message}` : message;
  void get().then((t) => t.show({ intent, timeout, message: text, icon: ICONS[intent] ?? createElement(InfoSignIcon) }, `${intent} ${text}`));
}

export const notify = {
  error: (message: string, title?: string) => show(Intent.DANGER, message, title),
  warning: (message: string, title?: string) => show(Intent.WARNING, message, title),
  success: (message: string) => show(Intent.SUCCESS, message, undefined, 3_000),
  info: (message: string) => show(Intent.PRIMARY, message, undefined, 3_000),
};
