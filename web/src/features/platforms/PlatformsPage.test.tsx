import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { session } from '@/lib/session';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn, type Call } from '@/test/harness';
import type { PayConfig } from './api/payConfig';
import PlatformsPage from './PlatformsPage';
import { overview, unset, wechat } from './test/fixtures';

const OVERVIEW = 'GET /payment/PayPdConfig/overview';
const SELECT = 'GET /payment/PayPdConfig/selectByCamp';
const UPDATE = 'PUT /payment/PayPdConfig/update';
const DELETE = 'DELETE /payment/PayPdConfig/delete';
const ROUTE = ['home', 'customized.list'];
const CONFIGURE = [...ROUTE, 'customized.list:payConfig'];

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

function signInOperator(permissions: string[]) {
  signIn(accountInfo({}, { permissionRoutes: permissions }), permissions);
}

/** A server keeping camp 1's WeChat Pay configuration as update and delete change it. */
function configServer(first: PayConfig = wechat(), update?: (call: Call) => Response) {
  let stored = first;
  return fakeServer({
    [OVERVIEW]: () => {
      const camps = overview().camps.map((camp) => (camp.camp === stored.camp ? { ...camp, own: { ...camp.own, wechat: stored.own } } : camp));
      return envelope(overview({ camps }));
    },
    [SELECT]: () => envelope(stored),
    [UPDATE]: update ?? ((call) => {
      const { values } = call.body as { values: Record<string, string> };
      stored = {
        ...stored, own: true, updatedAt: '2026-11-28 09:30:00',
        fields: stored.fields.map((field) => {
          if (!(field.name in values)) return field;
          return field.secret ? { ...field, set: true, last4: values[field.name]!.slice(-4) } : { ...field, value: values[field.name]! };
        }),
      };
      return envelope(stored);
    }),
    [DELETE]: () => {
      stored = unset(stored);
      return envelope(stored);
    },
  });
}

async function openWechat() {
  const user = userEvent.setup();
  await user.click(await screen.findByTestId('pf-open-1-wechat'));
  await screen.findByTestId('pc-form');
  return user;
}

describe('the white-label platforms', () => {
  it('lists the camps with their platforms and, per provider of the edition, own or the console\'s', async () => {
    configServer();
    signInOperator(CONFIGURE);
    renderApp(<PlatformsPage />, '/customized/list');
    const rows = await screen.findAllByTestId('pf-camp');
    expect(rows.map((row) => row.getAttribute('data-camp'))).toEqual(['0', '1']);
    expect(rows[0]).toHaveTextContent('Console (camp 0)');
    expect(rows[0]).toHaveTextContent('No platform');
    expect(within(rows[1]!).getByTestId('pf-platform')).toHaveTextContent(/Demo Cold Chain Cloud.*demo\.localhost/);
    const headers = within(screen.getByTestId('pf-camps')).getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers).toEqual(['Camp', 'Platforms', 'WeChat Pay', 'Alipay']);
    expect(screen.getByTestId('pf-status-1-wechat')).toHaveTextContent('Own configuration');
    expect(screen.getByTestId('pf-status-1-alipay')).toHaveTextContent("The console's");
  });

  it('names a provider or a field it does not know as the server sent it', async () => {
    fakeServer({
      [OVERVIEW]: () => envelope(overview({ providers: ['stripe', 'venmo'], camps: [{ camp: 2, platforms: [], own: { stripe: true } }] })),
      [SELECT]: () => envelope(wechat({ camp: 2, provider: 'venmo', fields: [{ name: 'merchantHandle', secret: false, required: false,
        multiline: false, value: 'cold' }] })),
    });
    signInOperator(CONFIGURE);
    renderApp(<PlatformsPage />, '/customized/list');
    expect(await screen.findByTestId('pf-camps')).toHaveTextContent(/Stripe.*venmo/);
    expect(screen.getByTestId('pf-status-2-venmo')).toHaveTextContent("The console's");
    await userEvent.setup().click(screen.getByTestId('pf-open-2-venmo'));
    expect(await screen.findByLabelText('merchantHandle')).toHaveValue('cold');
  });

  it('shows a secret only as set and how it ends, sends it only when typed anew, and plain fields as typed', async () => {
    const server = configServer();
    signInOperator(CONFIGURE);
    renderApp(<PlatformsPage />, '/customized/list');
    const user = await openWechat();
    expect(server.callsTo(SELECT)[0]?.params.toString()).toBe('camp=1&provider=wechat');
    expect(screen.getByTestId('pc-secret-apiKey')).toHaveTextContent('Set, ending in ••••9f3a');
    expect(screen.getByTestId('pc-secret-mchKey')).toHaveTextContent('Not set');
    expect(screen.getByTestId('pc-field-apiKey')).toHaveValue('');
    expect(screen.getByTestId('pc-field-apiKey')).toHaveAttribute('type', 'password');
    expect(screen.getByTestId('pc-field-mchCert').tagName).toBe('TEXTAREA');
    expect(screen.getByTestId('pc-field-appId')).toHaveValue('wx1234');
    expect(screen.getByLabelText(/^Merchant ID/)).toHaveValue('1900000201');
    expect(screen.getByTestId('pc-notify-url')).toHaveValue('https://console.example/api/payment/notify/wechat/1');
    expect(screen.getByTestId('pc-updated')).toHaveTextContent('Saved 2026-11-27 10:00:00 by admin');

    await user.clear(screen.getByTestId('pc-field-papayPlanId'));
    await user.type(screen.getByTestId('pc-field-oauthSecret'), ' s3cret-oauth ');
    await user.click(screen.getByTestId('pc-save'));
    await waitFor(() => expect(server.callsTo(UPDATE)).toHaveLength(1));
    expect(server.callsTo(UPDATE)[0]?.body).toEqual({
      camp: 1, provider: 'wechat',
      // apiKey and mchKey left empty: kept as stored; papayPlanId emptied: cleared
      values: { appId: 'wx1234', mchId: '1900000201', papayPlanId: '', mchCert: '', oauthSecret: 's3cret-oauth' },
    });
    await waitFor(() => expect(screen.getByTestId('pc-secret-oauthSecret')).toHaveTextContent('Set, ending in ••••auth'));
    expect(screen.getByTestId('pc-field-oauthSecret')).toHaveValue('');
    expect(screen.getByTestId('pc-updated')).toHaveTextContent('2026-11-28 09:30:00');
  });

  it('asks for the required fields before sending, a stored secret excepted, and a missing one when none is stored', async () => {
    const server = configServer(unset(wechat()));
    signInOperator(CONFIGURE);
    renderApp(<PlatformsPage />, '/customized/list');
    const user = await openWechat();
    expect(screen.getByTestId('pc-uses-console')).toHaveTextContent("This camp uses the console's configuration");
    expect(screen.queryByTestId('pc-use-console')).not.toBeInTheDocument();
    await user.type(screen.getByTestId('pc-field-appId'), 'wxcamp0001');
    await user.click(screen.getByTestId('pc-save'));
    const form = screen.getByTestId('pc-form');
    await waitFor(() => expect(within(form).getAllByText('Required')).toHaveLength(2)); // mchId, apiKey
    expect(screen.getByTestId('pc-field-mchId')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('pc-field-apiKey')).toHaveAttribute('aria-invalid', 'true');
    expect(server.callsTo(UPDATE)).toHaveLength(0);

    await user.type(screen.getByTestId('pc-field-mchId'), '1900000201');
    await user.type(screen.getByTestId('pc-field-apiKey'), 'a'.repeat(28) + '0c1d');
    await user.click(screen.getByTestId('pc-save'));
    await waitFor(() => expect(server.callsTo(UPDATE)).toHaveLength(1));
    expect((server.callsTo(UPDATE)[0]?.body as { values: object }).values)
      .toMatchObject({ appId: 'wxcamp0001', mchId: '1900000201', apiKey: `${'a'.repeat(28)}0c1d` });
    expect(await screen.findByTestId('pc-own')).toHaveTextContent('Own configuration');
    expect(screen.getByTestId('pc-secret-apiKey')).toHaveTextContent('Set, ending in ••••0c1d');
  });

  it("shows the server's refusal of a field under that field, and the rest above the buttons", async () => {
    configServer(wechat(), () => envelope(null, 422, 422, 'Invalid input', {
      'values.mchId': ['A merchant ID is 8 to 10 digits'],
      'values.mchKey': ['Not a PEM private key'],
      camp: ['No platform has camp 1'],
    }));
    signInOperator(CONFIGURE);
    renderApp(<PlatformsPage />, '/customized/list');
    const user = await openWechat();
    await user.clear(screen.getByTestId('pc-field-mchId'));
    await user.type(screen.getByTestId('pc-field-mchId'), '19x');
    await user.type(screen.getByTestId('pc-field-mchKey'), 'not a key');
    await user.click(screen.getByTestId('pc-save'));
    expect(await screen.findByText('A merchant ID is 8 to 10 digits')).toBeInTheDocument();
    expect(screen.getByTestId('pc-field-mchId')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Not a PEM private key')).toBeInTheDocument();
    expect(screen.getByTestId('pc-form-error')).toHaveTextContent('No platform has camp 1');
    // what was typed stays, to be mended
    expect(screen.getByTestId('pc-field-mchKey')).toHaveValue('not a key');
  });

  it("gives the camp's own configuration up for the console's only once confirmed", async () => {
    const server = configServer();
    signInOperator(CONFIGURE);
    renderApp(<PlatformsPage />, '/customized/list');
    const user = await openWechat();
    await user.click(screen.getByTestId('pc-use-console'));
    expect(await screen.findByTestId('pc-use-console-confirm')).toHaveTextContent(
      "The own WeChat Pay configuration of Camp 1 will be deleted: its orders will be paid to the console's merchant account.");
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('pc-use-console-confirm')).not.toBeInTheDocument());
    expect(server.callsTo(DELETE)).toHaveLength(0);

    await user.click(screen.getByTestId('pc-use-console'));
    await user.click(await screen.findByRole('button', { name: "Delete and use the console's" }));
    await waitFor(() => expect(server.callsTo(DELETE)).toHaveLength(1));
    expect(server.callsTo(DELETE)[0]?.params.toString()).toBe('camp=1&provider=wechat');
    expect(await screen.findByTestId('pc-uses-console')).toBeInTheDocument();
    expect(screen.getByTestId('pc-secret-apiKey')).toHaveTextContent('Not set');
    expect(screen.getByTestId('pc-field-appId')).toHaveValue('');
    await waitFor(() => expect(screen.getByTestId('pf-status-1-wechat')).toHaveTextContent("The console's"));
  });

  it('offers no configuration without customized.list:payConfig', async () => {
    const server = configServer();
    signInOperator(ROUTE);
    renderApp(<PlatformsPage />, '/customized/list');
    expect(await screen.findByTestId('pf-status-1-wechat')).toHaveTextContent('Own configuration');
    expect(screen.queryByTestId('pf-open-1-wechat')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Configure/ })).not.toBeInTheDocument();
    expect(server.callsTo(SELECT)).toHaveLength(0);
  });
});
