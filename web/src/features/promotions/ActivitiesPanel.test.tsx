import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import ActivitiesPanel from './ActivitiesPanel';
import { activityFormSchema, emptyActivityForm, formToFields } from './activityForm';
import { alertFormSchema } from './alertForm';
import type { Activity, OptionLabel } from './api/promotions';
import SmsPanel from './SmsPanel';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const PERMITTED = ['home', 'order.servicePackage', ...['query', 'add', 'edit', 'delete', 'enable', 'disable', 'export']
  .map((a) => `order.servicePackage:${a}`)];
const page = <T,>(rows: T[]) => envelope({ start: 1, pageSize: 10, totalCount: rows.length, data: rows });
const OPTIONS: OptionLabel[] = [
  { levelYearId: 11, packageId: 1, packageName: 'Standard', levelId: 2, levelName: 'Basic', timeLength: 12, currency: 'CNY',
    serviceFee: 19900, discount: 100 },
  { levelYearId: 12, packageId: 1, packageName: 'Standard', levelId: 2, levelName: 'Basic', timeLength: 24, currency: 'CNY',
    serviceFee: 35900, discount: 95 },
];
const ALICE = { id: 5, userName: 'alice', phone: '13800000001', email: 'alice@example.com' };

function activity(change: Partial<Activity> = {}): Activity {
  return { id: 3, name: 'Spring sale', defaultName: 'Spring sale', names: {}, nature: 1, status: 1,
    startTime: '2020-01-01T00:00:00+08:00', endTime: '2099-01-01T00:00:00+08:00', createdAt: '2020-01-01T00:00:00+08:00',
    options: [{ levelYearId: 11, activityDiscount: 80, presentationMonth: 0 }], accounts: [], ...change };
}

describe('the activity form', () => {
  const schema = activityFormSchema(i18n.t.bind(i18n) as never);
  const row = (levelYearId: number, discount = 80, bonusMonths = 0) => ({ levelYearId, discount, bonusMonths });
  const base = { ...emptyActivityForm(new Date(2026, 4, 1, 8, 0)), name: 'Spring sale', options: [row(11)] };
  const problems = (change: object) => {
    const parsed = schema.safeParse({ ...base, ...change });
    return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
  };

  it('checks what the server checks', () => {
    expect(problems({})).toEqual([]);
    expect(problems({ name: '' })).toEqual(['name']);
    expect(problems({ name: 'x'.repeat(21) })).toEqual(['name']);
    expect(problems({ name: 'Sale 😀' })).toEqual(['name']);
    expect(problems({ names: { 'ru-RU': 'я'.repeat(21) } })).toEqual(['names.ru-RU']);
    expect(problems({ endTime: base.startTime })).toEqual(['endTime']);
    expect(problems({ options: [] })).toEqual(['options']);
    // each linked option is checked on its own row: an offer of nothing, a discount out of 1-100, a row left empty
    expect(problems({ options: [row(11), row(12, 100, 0)] })).toEqual(['options.1.discount']);
    expect(problems({ options: [row(11, 100, 2)] })).toEqual([]);
    expect(problems({ options: [row(11, 0)] })).toContain('options.0.discount');
    expect(problems({ options: [row(11, 101)] })).toContain('options.0.discount');
    expect(problems({ options: [row(11, Number.NaN)] })).toContain('options.0.discount');
    expect(problems({ options: [row(11, 80, 121)] })).toEqual(['options.0.bonusMonths']);
    expect(problems({ options: [row(11, 80.5)] })).toContain('options.0.discount');
    expect(problems({ discount: 0 })).toContain('discount');
    expect(problems({ nature: 2 })).toEqual(['accounts']);
    expect(problems({ nature: 2, accounts: [ALICE] })).toEqual([]);
  });

  it('sends each option at its own discount, and targets only for a directional activity', () => {
    const fields = formToFields({ ...base, discount: 80, bonusMonths: 1, options: [row(11, 80, 1), row(12, 60, 0)], accounts: [ALICE],
      names: { 'en-US': ' Spring ', 'ru-RU': '' } });
    expect(fields.options).toEqual([{ levelYearId: 11, activityDiscount: 80, presentationMonth: 1 },
      { levelYearId: 12, activityDiscount: 60, presentationMonth: 0 }]);
    expect(fields.accountIds).toEqual([]);
    expect(fields.names).toEqual({ 'en-US': 'Spring' });
    expect(formToFields({ ...base, nature: 2, accounts: [ALICE] }).accountIds).toEqual([5]);
  });

  it('checks an SMS package as the server does', () => {
    const alert = alertFormSchema(i18n.t.bind(i18n) as never);
    const ok = (change: object) => alert.safeParse({ countryCode: '86', packageName: 'SMS 100', names: {}, fee: 10,
      currency: 'CNY', smsCount: 100, discount: 100, enabled: true, ...change }).success;
    expect(ok({})).toBe(true);
    expect(ok({ countryCode: '086' })).toBe(false);
    expect(ok({ countryCode: '12345' })).toBe(false);
    expect(ok({ fee: -1 })).toBe(false);
    expect(ok({ fee: 10.001 })).toBe(false);
    expect(ok({ smsCount: 0 })).toBe(false);
    expect(ok({ packageName: '' })).toBe(false);
  });
});

describe('the promotions tab', () => {
  it('runs a directional activity for an account found by search', async () => {
    const server = fakeServer({
      'POST /payment/PayActivity/selectPackageActivity': () => page([]),
      'GET /payment/PayActivity/selectServicePackageActivity': () => envelope(OPTIONS),
      'POST /payment/PayActivityAccountRel/selectListByDomain': () => envelope([ALICE]),
      'POST /payment/PayActivity/insertActivity': () => envelope(activity({ nature: 2, accounts: [ALICE] })),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<ActivitiesPanel />, '/service/package?tab=promotions');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('pr-add'));
    await user.type(screen.getByTestId('pr-name'), 'Spring sale');
    await user.type(screen.getByTestId('pr-name-ru-RU'), 'Весна');
    await user.click(screen.getByTestId('pr-nature-2'));
    await user.click((await screen.findAllByTestId('pr-option'))[0]!);
    await user.type(screen.getByTestId('pr-account-search'), 'ali');
    await user.click(screen.getByTestId('pr-account-find'));
    await user.click(await screen.findByTestId('pr-account-add'));
    expect(screen.getByTestId('pr-target')).toHaveTextContent('alice');
    await user.click(screen.getByTestId('pr-save'));
    await waitFor(() => expect(server.callsTo('POST /payment/PayActivity/insertActivity')).toHaveLength(1));
    expect(server.callsTo('POST /payment/PayActivity/insertActivity')[0]!.body).toMatchObject({
      name: 'Spring sale', nature: 2, names: { 'ru-RU': 'Весна' }, accountIds: [5],
      options: [{ levelYearId: 11, activityDiscount: 80, presentationMonth: 0 }],
    });
  });

  it('sets a discount and bonus months per linked option, checked row by row', async () => {
    const server = fakeServer({
      'POST /payment/PayActivity/selectPackageActivity': () => page([]),
      'GET /payment/PayActivity/selectServicePackageActivity': () => envelope(OPTIONS),
      'POST /payment/PayActivity/insertActivity': () => envelope(activity()),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<ActivitiesPanel />);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('pr-add'));
    await user.type(screen.getByTestId('pr-name'), 'Two prices');
    const [year, twoYears] = await screen.findAllByTestId('pr-option');
    await user.click(year!);
    await user.click(twoYears!);
    const rows = screen.getAllByTestId('pr-linked-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByTestId('pr-option-pays')).toHaveTextContent('159'); // 80 % of ¥199, cut to the yuan
    const secondDiscount = within(rows[1]!).getByTestId('pr-option-discount');
    await user.clear(secondDiscount);
    await user.type(secondDiscount, '100'); // no discount and no bonus: offers nothing
    await user.click(screen.getByTestId('pr-save'));
    expect(await within(screen.getAllByTestId('pr-linked-row')[1]!).findByText('Offer a discount below 100 % or bonus months.'))
      .toBeInTheDocument();
    expect(server.callsTo('POST /payment/PayActivity/insertActivity')).toHaveLength(0);
    await user.type(within(screen.getAllByTestId('pr-linked-row')[1]!).getByTestId('pr-option-bonus'), '3');
    await user.clear(within(screen.getAllByTestId('pr-linked-row')[0]!).getByTestId('pr-option-discount'));
    await user.type(within(screen.getAllByTestId('pr-linked-row')[0]!).getByTestId('pr-option-discount'), '70');
    await user.click(screen.getByTestId('pr-save'));
    await waitFor(() => expect(server.callsTo('POST /payment/PayActivity/insertActivity')).toHaveLength(1));
    expect(server.callsTo('POST /payment/PayActivity/insertActivity')[0]!.body).toMatchObject({
      options: [{ levelYearId: 11, activityDiscount: 70, presentationMonth: 0 },
        { levelYearId: 12, activityDiscount: 100, presentationMonth: 3 }],
    });
  });

  it('applies the default offer to every linked option', async () => {
    fakeServer({
      'POST /payment/PayActivity/selectPackageActivity': () => page([]),
      'GET /payment/PayActivity/selectServicePackageActivity': () => envelope(OPTIONS),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<ActivitiesPanel />);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('pr-add'));
    for (const option of await screen.findAllByTestId('pr-option')) await user.click(option);
    await user.clear(screen.getByTestId('pr-discount'));
    await user.type(screen.getByTestId('pr-discount'), '50');
    await user.click(screen.getByTestId('pr-apply-all'));
    expect(screen.getAllByTestId('pr-option-discount').map((input) => (input as HTMLInputElement).value)).toEqual(['50', '50']);
    await user.click(screen.getAllByTestId('pr-option-unlink')[0]!);
    expect(screen.getAllByTestId('pr-linked-row')).toHaveLength(1);
    expect(screen.getAllByTestId('pr-option')[0]).not.toBeChecked();
  });

  it('shows the overlap the server refuses on the form', async () => {
    fakeServer({
      'POST /payment/PayActivity/selectPackageActivity': () => page([]),
      'GET /payment/PayActivity/selectServicePackageActivity': () => envelope(OPTIONS),
      'POST /payment/PayActivity/insertActivity': () => envelope(null, 2071, 409,
        'The enabled activity “Winter sale” already offers the same package option during this period'),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<ActivitiesPanel />);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('pr-add'));
    await user.type(screen.getByTestId('pr-name'), 'Clash');
    await user.click((await screen.findAllByTestId('pr-option'))[0]!);
    await user.click(screen.getByTestId('pr-save'));
    expect(await screen.findByTestId('pr-form-error')).toHaveTextContent('Winter sale');
  });

  it('stops an activity after saying the package prices come back', async () => {
    const server = fakeServer({
      'POST /payment/PayActivity/selectPackageActivity': () => page([activity()]),
      'POST /payment/PayActivity/stopActivity': () => envelope(activity({ status: 0 })),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<ActivitiesPanel />);
    expect(await screen.findByTestId('pr-row-offer')).toHaveTextContent('80 % of the price');
    expect(screen.getByTestId('pr-row-status')).toHaveTextContent('Running');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('pr-stop'));
    expect(screen.getByTestId('pr-confirm')).toHaveTextContent("package's own prices");
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(server.callsTo('POST /payment/PayActivity/stopActivity')[0]?.body).toEqual({ id: 3 }));
  });

  it('hides the changes from an operator who may only read', async () => {
    const reader = ['home', 'order.servicePackage', 'order.servicePackage:query'];
    fakeServer({ 'POST /payment/PayActivity/selectPackageActivity': () => page([activity()]) });
    signIn(accountInfo({}, { permissionRoutes: reader }), reader);
    renderApp(<ActivitiesPanel />);
    expect(await screen.findByTestId('pr-row')).toBeInTheDocument();
    for (const id of ['pr-add', 'pr-edit', 'pr-stop', 'pr-copy', 'pr-delete']) expect(screen.queryByTestId(id)).not.toBeInTheDocument();
  });
});

describe('the SMS packages tab', () => {
  it('lists packages per country code with the limit and reports an import row by row', async () => {
    const sms = (id: number, name: string) => ({ packageId: id, kind: 1, countryCode: '86', packageName: name, defaultName: name,
      names: {}, packageFee: 1000, currency: 'CNY', smsCount: 100, discount: 100, status: 1, sort: id });
    const server = fakeServer({
      'POST /payment/PaySmsPackages/selectSmsPackageList': () => envelope([sms(1, 'SMS 100'), sms(2, 'SMS 500')]),
      'POST /payment/PaySmsPackages/sortPackage': () => envelope([sms(2, 'SMS 500'), sms(1, 'SMS 100')]),
      'POST /payment/PaySmsPackages/importSmsPackages': () => envelope({ added: 1, refused: 1, rows: [
        { row: 2, packageName: 'SMS 9', added: true, packageId: 9, field: null, message: null },
        { row: 3, packageName: 'SMS 10', added: false, packageId: null, field: 'countryCode',
          message: 'A country code may have at most 5 SMS packages and 5 voice packages' }] }),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<SmsPanel />);
    expect(await screen.findAllByTestId('pr-alert-row')).toHaveLength(2);
    expect(screen.getByTestId('pr-alert-group')).toHaveTextContent('2 / 5');
    const user = userEvent.setup({ applyAccept: false }); // a file picker may be told to show every file
    await user.click(screen.getAllByTestId('pr-alert-up')[1]!);
    await waitFor(() => expect(server.callsTo('POST /payment/PaySmsPackages/sortPackage')[0]?.body).toEqual(
      { countryCode: '86', kind: 1, ids: [2, 1] }));
    await user.click(screen.getByTestId('pr-alert-import'));
    const input = screen.getByTestId('pr-import-file').querySelector('input')!;
    await user.upload(input, new File(['x'], 'notes.csv', { type: 'text/csv' }));
    expect(screen.getByTestId('pr-import-error')).toHaveTextContent('.xlsx');
    await user.upload(input, new File(['PK'], 'packages.xlsx'));
    await user.click(screen.getByTestId('pr-import-send'));
    const rows = await screen.findAllByTestId('pr-import-row');
    expect(rows[0]).toHaveTextContent('Added');
    expect(rows[1]).toHaveTextContent('Country code: A country code may have at most 5');
  });
});
