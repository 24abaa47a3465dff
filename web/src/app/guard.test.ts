import { describe, expect, it, vi } from 'vitest';
import { decide, effectiveScene, findRoute, loginPathFor, runGuard, type GuardContext, type GuardEffects } from './guard';

function ctx(pathname: string, extra: Partial<GuardContext> = {}): GuardContext {
  const [path, query = ''] = pathname.split('?');
  return {
    pathname: path!,
    search: query ? `?${query}` : '',
    token: null,
    loaded: false,
    held: new Set(),
    mobile: false,
    wechat: false,
    openId: null,
    customData: null,
    ...extra,
  };
}

const signedIn = (pathname: string, held: string[] = ['home', 'device.list'], extra: Partial<GuardContext> = {}) =>
  ctx(pathname, { token: 't', loaded: true, held: new Set(held), ...extra });

describe('guard decisions', () => {
  it('sends the root to /home (the device list on junjia platforms) and unknown paths to /', () => {
    expect(decide(ctx('/'))).toEqual({ kind: 'redirect', to: '/home' });
    expect(decide(ctx('/', { customData: { styleModel: 'junjia' } }))).toEqual({ kind: 'redirect', to: '/device/list' });
    expect(decide(ctx('/no/such/page'))).toEqual({ kind: 'redirect', to: '/' });
  });

  it.each([
    ['/device/list?deviceName=A', '/user/login?redirect=%2Fdevice%2Flist%3FdeviceName%3DA'],
    ['/admin/order/list', '/calibration/admin/login?redirect=%2Fadmin%2Forder%2Flist'],
    ['/customer/order/detail/7', '/calibration/login?redirect=%2Fcustomer%2Forder%2Fdetail%2F7'],
  ])('sends an unauthenticated visit of %s to the area login with the redirect', (path, to) => {
    expect(decide(ctx(path))).toEqual({ kind: 'redirect', to });
  });

  it('lets public pages through without a token', () => {
    for (const path of ['/user/login', '/user/register', '/user/recover', '/mobilePay/pay', '/help/center',
      '/pcQuick/waybill', '/calibration/form', '/mobile/calibration/apply', '/vipDetails/backups', '/elitechMall/center',
      // a customer without an account lists and opens the applications this browser made
      '/mobile/calibration/list', '/mobile/calibration/detail/CAL20261127ABCD2345']) {
      expect(decide(ctx(path)).kind, path).toBe('allow');
    }
  });

  it('opens the external routes in a new window and keeps the page', () => {
    for (const name of ['plc', 'calibrationServe', 'marketManage']) {
      const decision = decide(signedIn(`/${name}`));
      expect(decision).toMatchObject({ kind: 'external', route: { name } });
    }
  });

  it('adopts a token from the query, unless the link is about an order', () => {
    expect(decide(ctx('/device/list?token=abc&x=1'))).toEqual({ kind: 'adoptToken', token: 'abc', to: '/device/list?x=1' });
    expect(decide(ctx('/mobilePay/pay?token=abc&orderId=9')).kind).toBe('allow');
  });

  it('logs in automatically from credentials in the query', () => {
    expect(decide(ctx('/home?userName=alice&password=p%23w'))).toEqual({
      kind: 'autoLogin', userName: 'alice', password: 'p#w', to: '/home',
    });
  });

  it('moves the quick-query waybill list between its mobile and desktop paths', () => {
    expect(decide(ctx('/pcQuick/waybill?id=5', { mobile: true }))).toEqual({ kind: 'redirect', to: '/mobileQuick/waybill?id=5' });
    expect(decide(ctx('/mobileQuick/waybill?id=5'))).toEqual({ kind: 'redirect', to: '/pcQuick/waybill?id=5' });
    expect(decide(ctx('/mobileQuick/waybill?id=5', { mobile: true })).kind).toBe('allow');
  });

  it('asks WeChat for an OpenID under the mobile calibration path, then exchanges the code', () => {
    expect(decide(ctx('/mobile/calibration/home', { wechat: true }))).toEqual({ kind: 'wechatAuthorize' });
    expect(decide(ctx('/mobile/calibration/home?code=C1&state=s', { wechat: true }))).toEqual({
      kind: 'exchangeOpenId', code: 'C1', to: '/mobile/calibration/home',
    });
    expect(decide(ctx('/mobile/calibration/home', { wechat: true, openId: 'o1' })).kind).toBe('allow');
    expect(decide(ctx('/mobile/calibration/home')).kind).toBe('allow'); // not in WeChat
  });

  it('sends the register page to login when the custom data says registration is enabled', () => {
    expect(decide(ctx('/user/register', { customData: { enableRegister: 1 } }))).toEqual({ kind: 'redirect', to: '/user/login' });
    expect(decide(ctx('/user/register', { customData: { enableRegister: 0 } })).kind).toBe('allow');
  });

  it('loads permissions once, then checks the route against them', () => {
    expect(decide(ctx('/device/list', { token: 't' }))).toEqual({ kind: 'loadPermissions' });
    expect(decide(signedIn('/device/list')).kind).toBe('allow');
    expect(decide(signedIn('/notice/list'))).toMatchObject({ kind: 'forbidden', route: { name: 'noticeList' } });
  });

  it('sends a signed-in visit of the login page on to its redirect', () => {
    expect(decide(signedIn('/user/login?redirect=%2Fdevice%2Flist'))).toEqual({ kind: 'redirect', to: '/device/list' });
    expect(decide(signedIn('/user/login'))).toEqual({ kind: 'redirect', to: '/' });
    for (const outside of ['https://evil.example/x', '//evil.example', '/\\evil.example', 'javascript:alert(1)']) {
      expect(decide(signedIn(`/user/login?redirect=${encodeURIComponent(outside)}`))).toEqual({ kind: 'redirect', to: '/' });
    }
  });

  it('finds the most specific route', () => {
    expect(findRoute('/device/list')?.name).toBe('deviceList');
    expect(findRoute('/device/list/storage')?.name).toBe('storageList');
    expect(findRoute('/calibration/admin/login')?.name).toBe('calibrationAdminLogin');
    expect(findRoute('/admin/order/list')?.name).toBe('calibrationOrders');
    expect(loginPathFor('/calibration/form')).toBe('/calibration/login');
    expect(loginPathFor('/mobile/calibration/list')).toBe('/mobile/calibration/login');
  });

  it('falls back from scene 2 to 1 without cloudChain.myProject', () => {
    expect(effectiveScene(2, ['cloudChain.cockpit'])).toBe(1);
    expect(effectiveScene(2, ['cloudChain.myProject'])).toBe(2);
    expect(effectiveScene(1, ['cloudChain.myProject'])).toBe(1);
  });
});

function effects(state: Partial<GuardContext>, overrides: Partial<GuardEffects> = {}): GuardEffects & { state: GuardContext } {
  const current = { ...ctx('/'), ...state };
  return {
    state: current,
    context: (pathname, search) => ({ ...current, pathname, search }),
    adoptToken: vi.fn((token) => {
      current.token = token;
    }),
    autoLogin: vi.fn(async () => true),
    loadPermissions: vi.fn(async () => {
      current.loaded = true;
      current.held = new Set(['home']);
    }),
    exchangeOpenId: vi.fn(async () => {}),
    wechatAuthorize: vi.fn(),
    openExternal: vi.fn(),
    loadFailed: vi.fn(async () => {}),
    wait: vi.fn(async () => {}),
    ...overrides,
  };
}

describe('running the guard', () => {
  it('loads permissions and then lets the page through', async () => {
    const fx = effects({ token: 't' });
    await expect(runGuard('/home', '', fx)).resolves.toMatchObject({ kind: 'page', route: { name: 'home' } });
    expect(fx.loadPermissions).toHaveBeenCalledOnce();
  });

  it('logs out and goes to login when loading fails', async () => {
    const fx = effects({ token: 't' }, { loadPermissions: vi.fn(async () => Promise.reject(new Error('roles must be a non-null array'))) });
    await expect(runGuard('/home', '', fx)).resolves.toEqual({ kind: 'redirect', to: '/user/login?redirect=%2Fhome' });
    expect(fx.loadFailed).toHaveBeenCalledOnce();
  });

  it('shows a failed URL login for 4 s, then the login page', async () => {
    const fx = effects({}, { autoLogin: vi.fn(async () => false) });
    await expect(runGuard('/home', '?userName=a&password=b', fx)).resolves.toEqual({ kind: 'redirect', to: '/user/login' });
    expect(fx.wait).toHaveBeenCalledWith(4_000);
  });

  it('keeps the current page for an external route', async () => {
    const fx = effects({ token: 't', loaded: true });
    await expect(runGuard('/calibrationServe', '', fx)).resolves.toEqual({ kind: 'stay' });
    expect(fx.openExternal).toHaveBeenCalledOnce();
  });

  it('stores a token from the query and drops it from the address', async () => {
    const fx = effects({});
    await expect(runGuard('/home', '?token=abc', fx)).resolves.toEqual({ kind: 'redirect', to: '/home' });
    expect(fx.adoptToken).toHaveBeenCalledWith('abc');
  });
});
