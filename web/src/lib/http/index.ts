/** The application's two clients: the API under /api, and data-log downloads. */
import { t } from '../i18n';
import { currentLanguage } from '../i18n';
import { notify } from '../notify';
import { session } from '../session';
import { getToken } from '../storage';
import { createHttpClient, type SessionEnd } from './client';

let onSessionEnd: (reason: SessionEnd) => void = () => {};

/** The app decides what ending a session means (clear it, go to the right login page). */
export function setSessionEndHandler(handler: (reason: SessionEnd) => void): void {
  onSessionEnd = handler;
}

/** The zone the account chose (its page), else the browser's: times the server writes, and the days it reads, follow it. */
export function requestTimeZone(): string {
  return session.get().info?.baseAccount.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function deps(baseURL: string) {
  return {
    baseURL,
    getToken,
    getLanguage: currentLanguage,
    getTimeZone: requestTimeZone,
    notifyError: (message: string, title: string) => notify.error(message, title),
    t: (key: string) => t(`http.${key}`),
    endSession: (reason: SessionEnd) => onSessionEnd(reason),
  };
}

export const api = createHttpClient(deps('/api'));
export const dataLog = createHttpClient(deps('/dataLogDownLoadFile'));
export { ApiError, CancelledError, NetworkError } from './client';
