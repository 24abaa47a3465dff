import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, CancelledError, createHttpClient, NetworkError, requestKey, type ClientDeps } from './client';

type Handler = (url: string, init: RequestInit) => Promise<Response>;

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function setup(handler: Handler, token: string | null = 'tok') {
  const calls: { url: string; init: RequestInit }[] = [];
  const deps = {
    baseURL: '/api',
    getToken: () => token,
    getLanguage: () => 'de-DE',
    getTimeZone: () => 'Asia/Shanghai',
    notifyError: vi.fn(),
    t: (key: string) => `t:${key}`,
    endSession: vi.fn(),
    fetch: vi.fn((url: string, init: RequestInit) => {
      calls.push({ url, init });
      return handler(url, init);
    }) as unknown as typeof fetch,
  } satisfies ClientDeps;
  return { client: createHttpClient(deps), deps, calls };
}

const ok = (data: unknown) => json({ code: 0, msg: 'ok', data });
const headersOf = (init: RequestInit) => init.headers as Record<string, string>;

describe('http client', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends JSON under /api with language, time zone and the bearer token', async () => {
    const { client, calls } = setup(async () => ok({ a: 1 }));
    await expect(client.post('/base/BaseNotice/queryNotice', { noticeType: 1 }, { params: { x: 1 } })).resolves
      .toEqual({ a: 1 });
    const { url, init } = calls[0]!;
    expect(url).toBe('/api/base/BaseNotice/queryNotice?x=1');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"noticeType":1}');
    expect(headersOf(init)).toMatchObject({
      'Content-Type': 'application/json',
      'Accept-Language': 'de-DE',
      'X-Time-Zone': 'Asia/Shanghai',
      Authorization: 'Bearer tok',
    });
  });

  it.each(['/base/BaseAccount/login', '/base/BaseAccount/register'])('sends no token to %s', async (path) => {
    const { client, calls } = setup(async () => ok({ token: 'x' }));
    await client.post(path, {});
    expect(headersOf(calls[0]!.init).Authorization).toBeUndefined();
  });

  it('sends the token to every other call, such as the platform switch', async () => {
    const { client, calls } = setup(async () => ok(null));
    await client.post('/base/BaseAccount/login/toOldPaltform', {});
    expect(headersOf(calls[0]!.init).Authorization).toBe('Bearer tok');
  });

  it('drops empty query parameters', async () => {
    const { client, calls } = setup(async () => ok(null));
    await client.get('/x', { params: { a: undefined, b: null, c: 0, d: '' } });
    expect(calls[0]!.url).toBe('/api/x?c=0&d=');
  });

  it('cancels an identical request still in flight, silently', async () => {
    let release: (r: Response) => void = () => {};
    const { client, deps } = setup(
      (_url, init) =>
        new Promise((resolve, reject) => {
          release = resolve;
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const first = client.get('/same', { params: { a: 1 } });
    const second = client.get('/same', { params: { a: 1 } });
    await expect(first).rejects.toBeInstanceOf(CancelledError);
    release(ok('second'));
    await expect(second).resolves.toBe('second');
    expect(deps.notifyError).not.toHaveBeenCalled();
  });

  it('keys requests by method, url, body and params', () => {
    expect(requestKey('get', '/a', undefined, { x: 1 })).not.toBe(requestKey('get', '/a', undefined, { x: 2 }));
    expect(requestKey('post', '/a', { b: 1 }, undefined)).not.toBe(requestKey('get', '/a', { b: 1 }, undefined));
  });

  it('ends the session 1.5 s after code 2010, with the logon-timeout message', async () => {
    const { client, deps } = setup(async () => json({ code: 2010, msg: 'Logon timeout', data: null }, 401));
    await expect(client.get('/base/BaseAccount/accountInfo')).rejects.toMatchObject({ code: 2010 });
    expect(deps.notifyError).toHaveBeenCalledWith('t:logonTimeout', 't:errorTitle');
    expect(deps.endSession).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_499);
    expect(deps.endSession).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(deps.endSession).toHaveBeenCalledWith('timeout');
  });

  it('ends a session once however many calls find it expired', async () => {
    const { client, deps } = setup(async () => json({ code: 2010, msg: '', data: null }, 401));
    await Promise.allSettled([client.get('/a'), client.get('/b'), client.get('/c')]);
    vi.advanceTimersByTime(1_500);
    expect(deps.notifyError).toHaveBeenCalledOnce();
    expect(deps.endSession).toHaveBeenCalledOnce();
    client.sessionStarted();
    await client.get('/d').catch(() => {});
    vi.advanceTimersByTime(1_500);
    expect(deps.endSession).toHaveBeenCalledTimes(2);
  });

  it('shows a wrong-password login result without ending the session', async () => {
    const { client, deps } = setup(async () => json({ code: 1001, msg: 'Incorrect user name or password', data: null }, 401));
    await expect(client.post('/base/BaseAccount/login', {})).rejects.toMatchObject({ status: 401, code: 1001 });
    expect(deps.notifyError).toHaveBeenCalledWith('Incorrect user name or password', 't:errorTitle');
    expect(deps.endSession).not.toHaveBeenCalled();
  });

  it('ends the session at once on a bare 401', async () => {
    const { client, deps } = setup(async () => new Response('nope', { status: 401 }));
    await expect(client.get('/a')).rejects.toBeInstanceOf(ApiError);
    expect(deps.notifyError).toHaveBeenCalledWith('t:sessionTimeout', 't:errorTitle');
    expect(deps.endSession).toHaveBeenCalledWith('unauthorized');
  });

  it('denies access on 403: notice, logout, login page', async () => {
    const { client, deps } = setup(async () => json({ code: 403, msg: 'Access denied', data: null }, 403));
    await expect(client.get('/a')).rejects.toMatchObject({ status: 403 });
    expect(deps.notifyError).toHaveBeenCalledWith('t:accessDenied', 't:errorTitle');
    expect(deps.endSession).toHaveBeenCalledWith('denied');
  });

  it('keeps the session on the 403 of a call that takes it as its answer (a refused signature)', async () => {
    const { client, deps } = setup(async () => json({ code: 403, msg: 'Wrong password: 4 tries left', data: null }, 403));
    await expect(client.post('/sign', {}, { silent: true, denialIsAnswer: true }))
      .rejects.toMatchObject({ status: 403, message: 'Wrong password: 4 tries left' });
    expect(deps.endSession).not.toHaveBeenCalled();
    expect(deps.notifyError).not.toHaveBeenCalled();
  });

  it('says "Server Exception" for a 500, never the body', async () => {
    const { client, deps } = setup(async () => json({ code: 500, msg: 'Traceback...', data: null }, 500));
    await expect(client.get('/a')).rejects.toMatchObject({ message: 't:serverException' });
    expect(deps.notifyError).toHaveBeenCalledWith('t:serverException', 't:errorTitle');
  });

  it('rejects other codes with the body and shows the server message, or a default', async () => {
    const { client, deps } = setup(async () =>
      json({ code: 422, msg: 'Invalid input', data: null, errors: { phone: ['bad'] } }, 422),
    );
    const error = (await client.post('/a', {}).catch((e) => e)) as ApiError;
    expect(error).toMatchObject({ status: 422, code: 422, errors: { phone: ['bad'] } });
    expect(deps.notifyError).toHaveBeenCalledWith('Invalid input', 't:errorTitle');
    const empty = setup(async () => json({ code: 1007, msg: '', data: null }, 409));
    await empty.client.get('/a').catch(() => {});
    expect(empty.deps.notifyError).toHaveBeenCalledWith('t:errorMessage', 't:errorTitle');
  });

  it('rejects a 200 whose code is not 0', async () => {
    const { client } = setup(async () => json({ code: 1005, msg: 'User already exists', data: null }));
    await expect(client.get('/a')).rejects.toMatchObject({ code: 1005 });
  });

  it('keeps quiet when the caller shows the failure itself', async () => {
    const { client, deps } = setup(async () => json({ code: 1003, msg: 'wrong code', data: null }, 409));
    await expect(client.get('/a', { silent: true })).rejects.toMatchObject({ code: 1003 });
    expect(deps.notifyError).not.toHaveBeenCalled();
  });

  it('reports a network failure', async () => {
    const { client, deps } = setup(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(client.get('/a')).rejects.toMatchObject({ reason: 'offline' });
    expect(deps.notifyError).toHaveBeenCalledWith('t:networkError', 't:errorTitle');
  });

  it('gives up after 60 s', async () => {
    const { client, deps } = setup(
      (_url, init) =>
        new Promise((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const call = client.get('/slow');
    vi.advanceTimersByTime(60_000);
    await expect(call).rejects.toBeInstanceOf(NetworkError);
    expect(deps.notifyError).toHaveBeenCalledWith('t:requestTimeout', 't:errorTitle');
  });

  it('ignores a request cancelled by its caller', async () => {
    const { client, deps } = setup(
      (_url, init) =>
        new Promise((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const outer = new AbortController();
    const call = client.get('/a', { signal: outer.signal });
    outer.abort();
    await expect(call).rejects.toBeInstanceOf(CancelledError);
    expect(deps.notifyError).not.toHaveBeenCalled();
  });

  it('downloads a file with its name, and treats a JSON answer as a failure', async () => {
    const { client } = setup(async () =>
      new Response('%PDF', {
        status: 200,
        headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="report.pdf"' },
      }),
    );
    const file = await client.download('/report');
    expect(file.fileName).toBe('report.pdf');
    expect(await file.blob.text()).toBe('%PDF');
    const failing = setup(async () => json({ code: 404, msg: 'Report not yet generated', data: null }, 404));
    await expect(failing.client.download('/report')).rejects.toMatchObject({ code: 404 });
  });

  it('sends a FormData body as multipart, leaving its content type to the browser', async () => {
    const { client, calls } = setup(async () => ok({ accountPhoto: '/x' }));
    const form = new FormData();
    form.append('file', new Blob(['png']), 'me.png');
    await client.post('/base/BaseAccount/uploadHeadPhoto', form);
    expect(calls[0]!.init.body).toBe(form);
    expect(headersOf(calls[0]!.init)['Content-Type']).toBeUndefined();
  });
});
