import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderRoute, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import type { Package, PackageDetail } from './api/packages';
import { giftFormSchema, levelFormSchema, packageFormSchema, toCents } from './packageForm';
import ServicePackagePage from './ServicePackagePage';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const ACTIONS = ['query', 'detail', 'add', 'edit', 'delete', 'enable', 'disable'];
const PERMITTED = ['home', 'order.servicePackage', ...ACTIONS.map((a) => `order.servicePackage:${a}`)];
const t = () => i18n.t.bind(i18n) as never;
const names = (zh: string) => ({ 'zh-CN': { name: zh, description: '' }, 'en-US': { name: '', description: '' },
  'zh-TW': { name: '', description: '' }, 'ru-RU': { name: '', description: '' }, 'de-DE': { name: '', description: '' },
  'es-ES': { name: '', description: '' }, 'pt-PT': { name: '', description: '' } });
const row = { sold: false, timeLength: '12', serviceFee: '99', dataFee: '0', currency: 'CNY' as 'CNY' | 'USD', discount: '100',
  topStatus: false };

function pkg(change: Partial<Package> = {}): Package {
  return { id: 1, packageCode: '10000001', packageName: 'Standard cloud plan', names: { 'zh-CN': { name: '标准云服务',
    description: null } }, status: 1, enableTime: '2026-11-01T08:00:00+08:00', gmtCreate: '2026-11-01T08:00:00+08:00',
  deviceTypeIds: [11], levelCount: 3, sold: true, ...change };
}
const TYPES = [{ id: 11, typeName: 'RCW-360 Wi-Fi Logger', typeCode: 0x8001, activePackageId: 1 }];
const page = (rows: Package[]) => envelope({ start: 1, pageSize: 50, totalCount: rows.length, data: rows });

describe('the catalogue forms', () => {
  it('check packages, levels and the gift as the server does', () => {
    const packageOk = (code: string, zh: string) => packageFormSchema(t(), 'zh-CN')
      .safeParse({ packageCode: code, names: names(zh), deviceTypeIds: [] }).success;
    expect(packageOk('20000001', '冷链套餐')).toBe(true);
    expect(packageOk('2000001', '冷链套餐')).toBe(false);
    expect(packageOk('2000000a', '冷链套餐')).toBe(false);
    expect(packageOk('20000001', '')).toBe(false); // the default language's name is required
    expect(packageOk('20000001', '一'.repeat(21))).toBe(false);
    expect(packageOk('20000001', '一'.repeat(20))).toBe(true);
    const levelOk = (rows: (typeof row)[], zh = '金卡') => levelFormSchema(t(), 'zh-CN')
      .safeParse({ names: names(zh), itemCodes: [], options: rows }).success;
    expect(levelOk([row])).toBe(true);
    expect(levelOk([])).toBe(false);
    expect(levelOk([{ ...row, timeLength: '0' }])).toBe(false);
    expect(levelOk([{ ...row, timeLength: '-12' }])).toBe(false);
    expect(levelOk([{ ...row, serviceFee: '' }])).toBe(false);
    expect(levelOk([{ ...row, serviceFee: '1e30' }])).toBe(false);
    expect(levelOk([{ ...row, discount: '0' }])).toBe(false);
    expect(levelOk([row, { ...row, serviceFee: '120' }])).toBe(false); // 12 months twice in CNY
    expect(levelOk([row, { ...row, currency: 'USD' }])).toBe(true);
    expect(levelOk([row], '金卡😀')).toBe(false);
    const giftOk = (levelId: string, months: string) => giftFormSchema(t())
      .safeParse({ levelId, timeLength: months, smsCount: '0', voiceCount: '0' }).success;
    expect(giftOk('', '0')).toBe(true);
    expect(giftOk('', '2')).toBe(false);
    expect(giftOk('3', '121')).toBe(false);
    expect([toCents('99'), toCents('99.5'), toCents('0.05'), toCents('1.234')]).toEqual([9900, 9950, 5, Number.NaN]);
  });
});

describe('the packages tab', () => {
  it('lists packages, shows the refusal of a second enabled package for a type and makes a new one', async () => {
    let rows = [pkg(), pkg({ id: 2, packageCode: '20000001', packageName: 'Cold plan', status: 0, levelCount: 2,
      sold: false, enableTime: null })];
    const detail: PackageDetail = { package: pkg({ id: 3, packageCode: '20000002', packageName: '冷链', status: 0,
      levelCount: 0, sold: false, enableTime: null, deviceTypeIds: [] }), levels: [],
    gift: { packageId: 3, levelId: null, timeLength: 2, smsCount: 0, voiceCount: 0, configured: false } };
    const server = fakeServer({
      'POST /payment/PayServicePackages/selectPackagesList': () => page(rows),
      'GET /payment/PayServiceDeviceTypeRel/selectAllTypeList': () => envelope(TYPES),
      'GET /payment/PayServiceItem/selectAllItem': () => envelope([]),
      'POST /payment/PayServicePackages/enableServicePackage': () => envelope(null, 2001, 409,
        'The device type RCW-360 Wi-Fi Logger already has the enabled package Standard cloud plan: stop it first'),
      'POST /payment/PayServicePackages/insert': (call) => {
        const body = call.body as { packageCode: string };
        if (body.packageCode === '10000001') {
          return envelope(null, 422, 422, 'Invalid input', { packageCode: ['This package code is already used by another package'] });
        }
        rows = [...rows, detail.package];
        return envelope(detail.package);
      },
      'GET /payment/PayServicePackages/selectPackagesDetail': () => envelope(detail),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderRoute(<ServicePackagePage />, '/service/package/:id?', '/service/package?tab=packages');
    const list = await screen.findAllByTestId('package-row');
    expect(list).toHaveLength(2);
    expect(list[0]).toHaveTextContent('RCW-360 Wi-Fi Logger');
    const user = userEvent.setup();
    await user.click(within(list[1]!).getByTestId('package-switch'));
    expect(await screen.findByTestId('package-refusal')).toHaveTextContent('stop it first');
    expect(server.callsTo('POST /payment/PayServicePackages/enableServicePackage')[0]?.body).toEqual({ id: 2 });

    await user.click(screen.getByTestId('package-new'));
    await user.type(await screen.findByTestId('package-code'), '10000001');
    await user.type(screen.getByTestId('package-names-zh-CN-name'), '冷链');
    await user.type(screen.getByTestId('package-names-ru-RU-name'), 'Холод');
    await user.click(screen.getByTestId('package-type-8001'));
    await user.click(screen.getByTestId('package-save'));
    expect(await screen.findByText('This package code is already used by another package')).toBeInTheDocument();
    await user.clear(screen.getByTestId('package-code'));
    await user.type(screen.getByTestId('package-code'), '20000002');
    await user.click(screen.getByTestId('package-save'));
    await waitFor(() => expect(server.callsTo('POST /payment/PayServicePackages/insert')).toHaveLength(2));
    expect(server.callsTo('POST /payment/PayServicePackages/insert')[1]?.body).toEqual({
      packageCode: '20000002', names: { 'zh-CN': { name: '冷链', description: null }, 'ru-RU': { name: 'Холод', description: null } },
      deviceTypeIds: [11] });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/service/package/3'));
  });
});

describe('the items and gift tabs', () => {
  it('adds an item named in two languages and sets a package\'s free gift', async () => {
    const items = [{ itemCode: 'ALARM_SMS', itemLabel: null, sort: 0, itemName: 'SMS alarms',
      names: { 'zh-CN': { name: '短信告警', description: null } } }];
    const detail: PackageDetail = { package: pkg(), levels: [{ levelId: 5, packageId: 1, levelName: 'Free', names: {},
      levelIcon: null, sort: 0, itemCodes: [], options: [], inUse: true }],
    gift: { packageId: 1, levelId: 5, timeLength: 2, smsCount: 0, voiceCount: 0, configured: true } };
    const server = fakeServer({
      'GET /payment/PayServiceItem/selectAllItem': () => envelope(items),
      'POST /payment/PayServiceItem/insert': (call) => envelope({ ...(call.body as object), sort: 1, itemName: 'Report' }),
      'POST /payment/PayServicePackages/selectPackagesList': () => page([pkg()]),
      'GET /payment/PayServicePackages/selectPackagesDetail': () => envelope(detail),
      'PUT /payment/PayServicePresentation/update': (call) => envelope({ ...(call.body as object), configured: true }),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderRoute(<ServicePackagePage />, '/service/package/:id?', '/service/package?tab=items');
    expect(await screen.findByTestId('item-row')).toHaveTextContent('SMS alarms');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('item-new'));
    await user.type(screen.getByTestId('item-code'), 'COLD_REPORT');
    await user.type(screen.getByTestId('item-names-zh-CN-name'), '冷链报告');
    await user.type(screen.getByTestId('item-names-en-US-name'), 'Cold report');
    await user.type(screen.getByTestId('item-names-en-US-description'), 'monthly');
    await user.click(screen.getByTestId('item-save'));
    await waitFor(() => expect(server.callsTo('POST /payment/PayServiceItem/insert')).toHaveLength(1));
    expect(server.callsTo('POST /payment/PayServiceItem/insert')[0]?.body).toEqual({ itemCode: 'COLD_REPORT', itemLabel: null,
      names: { 'zh-CN': { name: '冷链报告', description: null }, 'en-US': { name: 'Cold report', description: 'monthly' } } });

    await user.click(screen.getByTestId('catalogue-tab-gift'));
    const months = await screen.findByTestId('gift-timeLength');
    await user.clear(months);
    await user.type(months, '3');
    await user.clear(screen.getByTestId('gift-smsCount'));
    await user.type(screen.getByTestId('gift-smsCount'), '50');
    await user.click(screen.getByTestId('gift-save'));
    await waitFor(() => expect(server.callsTo('PUT /payment/PayServicePresentation/update')).toHaveLength(1));
    expect(server.callsTo('PUT /payment/PayServicePresentation/update')[0]?.body).toEqual({
      levelId: 5, timeLength: 3, smsCount: 50, voiceCount: 0, packageId: 1 });
  });
});
