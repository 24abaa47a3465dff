/**
 * The one HTTP client (spec seed 000 sections 7 and 8):
 * - base path, 60 s time-out, JSON, Accept-Language and X-Time-Zone on every request;
 * - a bearer token on every request except login and register;
 * - an identical request (method, url, body, params) still in flight is cancelled by its repeat;
 * - answers: code 0 resolves with `data`; code 2010 notifies "Logon timeout, please login again"
 *   and ends the session after 1.5 s; 401 (unless the body is a login result) and 403 (unless the
 *   call says a 403 is its answer: a refused signature) end it at once; 500 says "Server Exception"; no answer says the network failed; a cancelled request is
 *   silent; any other failure shows the server's message (or a default) for 4 s and rejects.
 */

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
  errors?: Record<string, string[]>;
}

export type SessionEnd = 'timeout' | 'unauthorized' | 'denied';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    /** The envelope's data: what the server says besides the message (e.g. captchaRequired). */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

export class NetworkError extends Error {
  constructor(readonly reason: 'offline' | 'timeout') {
    super(reason);
    this.name = 'NetworkError';
  }
}

export const LOGON_TIMEOUT_CODE = 2010;
export const LOGOUT_DELAY_MS = 1_500;
export const TIMEOUT_MS = 60_000;
const NO_TOKEN_PATHS = ['/base/BaseAccount/login', '/base/BaseAccount/register'];

export type Params = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  params?: Params;
  body?: unknown;
  /** The caller shows failures itself: no error notification (session rules still apply). */
  silent?: boolean;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /**
   * A 403 is this call's own answer, not a lost permission: an electronic signature refused (wrong
   * password, an endorsement that does not allow the signer). The session stays; the caller shows it.
   */
  denialIsAnswer?: boolean;
}

export interface ClientDeps {
  baseURL: string;
  getToken: () => string | null;
  getLanguage: () => string;
  getTimeZone?: () => string;
  /** Shows an error notification (4 s). */
  notifyError: (message: string, title: string) => void;
  /** Translates the client's own messages. */
  t: (key: string) => string;
  /** Clears the session and goes to the login page. */
  endSession: (reason: SessionEnd) => void;
  fetch?: typeof fetch;
  timeoutMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
}

export interface Download {
  blob: Blob;
  fileName: string | null;
}

export function requestKey(method: string, url: string, body: unknown, params: Params | undefined): string {
  return [method.toUpperCase(), url, JSON.stringify(body ?? null), JSON.stringify(params ?? null)].join(' ');
}

function withParams(url: string, params?: Params): string {
  if (!params) return url;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  const text = query.toString();
  return text ? `${url}${url.includes('?') ? '&' : '?'}${text}` : url;
}

function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1]) return decodeURIComponent(star[1].replace(/"/g, ''));
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ?? null;
}

export function createHttpClient(deps: ClientDeps) {
  const doFetch = deps.fetch ?? ((input, init) => fetch(input, init));
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const timeoutMs = deps.timeoutMs ?? TIMEOUT_MS;
  const pending = new Map<string, AbortController>();
  let ending = false;

  function endSession(reason: SessionEnd, message: string, delayMs = 0): void {
    if (ending) return; // several failing calls end one session once
    ending = true;
    deps.notifyError(message, deps.t('errorTitle'));
    const finish = () => deps.endSession(reason);
    if (delayMs > 0) setTimer(finish, delayMs);
    else finish();
  }

  async function send(method: string, url: string, options: RequestOptions, blob: boolean): Promise<Response> {
    const key = requestKey(method, url, options.body, options.params);
    pending.get(key)?.abort('duplicate');
    const controller = new AbortController();
    pending.set(key, controller);
    const timer = setTimeout(() => controller.abort('timeout'), timeoutMs);
    const onOuterAbort = () => controller.abort('cancelled');
    options.signal?.addEventListener('abort', onOuterAbort);

    const headers: Record<string, string> = {
      Accept: blob ? '*/*' : 'application/json',
      'Accept-Language': deps.getLanguage(),
      'X-Time-Zone': deps.getTimeZone?.() ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
      ...options.headers,
    };
    // A file upload (FormData) is sent as multipart, with the boundary the browser writes.
    const multipart = options.body instanceof FormData;
    if (options.body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
    const token = deps.getToken();
    if (token && !NO_TOKEN_PATHS.includes(url)) headers.Authorization = `Bearer ${token}`;

    try {
      return await doFetch(deps.baseURL + withParams(url, options.params), {
        method,
        headers,
        body: options.body === undefined ? undefined : multipart ? (options.body as FormData) : JSON.stringify(options.body),
        signal: controller.signal,
      });
    } catch {
      if (controller.signal.aborted && controller.signal.reason !== 'timeout') throw new CancelledError();
      const reason = controller.signal.aborted ? 'timeout' : 'offline';
      if (!options.silent) deps.notifyError(deps.t(reason === 'timeout' ? 'requestTimeout' : 'networkError'), deps.t('errorTitle'));
      throw new NetworkError(reason);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onOuterAbort);
      if (pending.get(key) === controller) pending.delete(key);
    }
  }

  async function envelopeOf(response: Response): Promise<Envelope<unknown> | null> {
    if (!(response.headers.get('Content-Type') ?? '').includes('application/json')) return null;
    const body = (await response.json().catch(() => null)) as Envelope<unknown> | null;
    return body && typeof body.code === 'number' ? body : null;
  }

  function fail(status: number, body: Envelope<unknown> | null, options: RequestOptions): never {
    const code = body?.code ?? status;
    const message = body?.msg || deps.t('errorMessage');
    if (code === LOGON_TIMEOUT_CODE) {
      endSession('timeout', deps.t('logonTimeout'), LOGOUT_DELAY_MS);
    } else if (status === 401 && !body) {
      // A 401 with an envelope is a login result (wrong password): shown like any other failure.
      endSession('unauthorized', deps.t('sessionTimeout'));
    } else if (status === 403 && !options.denialIsAnswer) {
      endSession('denied', deps.t('accessDenied'));
    } else if (status >= 500) {
      if (!options.silent) deps.notifyError(deps.t('serverException'), deps.t('errorTitle'));
    } else if (!options.silent) {
      deps.notifyError(message, deps.t('errorTitle'));
    }
    throw new ApiError(status, code, status >= 500 ? deps.t('serverException') : message, body?.errors, body?.data ?? undefined);
  }

  async function request<T>(method: string, url: string, options: RequestOptions = {}): Promise<T> {
    const response = await send(method, url, options, false);
    const body = await envelopeOf(response);
    if (response.status !== 200 || !body || body.code !== 0) fail(response.status, body, options);
    return body.data as T;
  }

  async function download(method: string, url: string, options: RequestOptions = {}): Promise<Download> {
    const response = await send(method, url, options, true);
    const body = await envelopeOf(response); // a JSON answer to a download is a failure envelope
    if (response.status !== 200 || body) fail(response.status, body, options);
    return { blob: await response.blob(), fileName: fileNameOf(response.headers.get('Content-Disposition')) };
  }

  return {
    get: <T>(url: string, options?: RequestOptions) => request<T>('GET', url, options),
    post: <T>(url: string, body?: unknown, options?: RequestOptions) =>
      request<T>('POST', url, { ...options, body: body ?? {} }),
    put: <T>(url: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', url, { ...options, body }),
    delete: <T>(url: string, options?: RequestOptions) => request<T>('DELETE', url, options),
    /** A binary answer (export, PDF): the blob and the file name from Content-Disposition. */
    download: (url: string, options?: RequestOptions & { method?: string }) =>
      download(options?.method ?? 'GET', url, options),
    /** A new session has begun (after login): session-end handling may fire again. */
    sessionStarted: () => {
      ending = false;
    },
  };
}

export type HttpClient = ReturnType<typeof createHttpClient>;
