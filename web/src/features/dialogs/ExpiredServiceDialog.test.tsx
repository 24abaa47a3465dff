import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '@/lib/session';
import type { ExpiredDevice } from '@/lib/api/expired';
import { EXPIRED_DIALOG_WIDTH, ExpiredServiceDialog, FILTER_DEBOUNCE_MS } from './ExpiredServiceDialog';
import { closeExpiredDialog, openExpiredDialog } from '@/lib/expiredDialogStore';
import { envelope, fakeServer, renderApp, setUpI18n, signIn, type Call } from '@/test/harness';

const row = (id: number, typeId: number, deviceTypeName: string, deviceName: string, access = 2): ExpiredDevice => ({
  id,
  typeId,
  deviceTypeName,
  deviceName,
  deviceGuid: `GUID-${id}`,
  serviceExpiredDate: '2020-01-01',
  access,
});

const PAGE = [
  row(11, 1, 'CR-2 Cold Room Monitor', 'Dock cold room'),
  row(12, 1, 'CR-2 Cold Room Monitor', 'Warehouse 1 cold room'),
  row(21, 2, 'RCW-360 Wi-Fi Logger', 'Cold room B logger'),
  row(22, 2, 'RCW-360 Wi-Fi Logger', 'Vaccine fridge logger'),
  row(23, 2, 'RCW-360 Wi-Fi Logger', 'Door logger'),
];
const EXPIRED_ONLY = [row(22, 2, 'RCW-360 Wi-Fi Logger', 'Vaccine fridge logger')];
const ROUTE = 'GET /device/Device/getExpiredServiceDevice';

function server() {
  return fakeServer({
    [ROUTE]: (call: Call) => {
      const flag = call.params.get('expiredFlag');
      const start = call.params.get('start');
      if (flag === '1') return envelope({ list: EXPIRED_ONLY, total: 1 });
      if (start === '2') return envelope({ list: [row(31, 3, 'FZ-1 Freezer Monitor', 'Pharmacy freezer')], total: 6 });
      return envelope({ list: PAGE, total: 6 });
    },
  });
}

function open(flag?: 1 | 2 | 3 | 4) {
  act(() => openExpiredDialog(flag));
}

const checkbox = (name: string) => screen.getByRole('checkbox', { name: `Select ${name}` });

beforeAll(setUpI18n);
beforeEach(() => signIn());
afterEach(() => {
  act(() => closeExpiredDialog());
  session.clear();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('ExpiredServiceDialog', () => {
  it('queries the caller’s devices expiring within 30 days, five a page', async () => {
    const api = server();
    renderApp(<ExpiredServiceDialog />);
    open();
    expect(await screen.findAllByTestId('expired-row')).toHaveLength(5);
    const [call] = api.callsTo(ROUTE);
    expect(Object.fromEntries(call!.params)).toEqual({ accountId: '7', expiredFlag: '2', start: '1', pageSize: '5' });
    expect(screen.getByTestId('expired-flag')).toHaveValue('2');
    expect(document.querySelector('.jc-expired-dialog')).toHaveStyle({ width: `${EXPIRED_DIALOG_WIDTH}px` });
  });

  it('shows each device type once, spanning the rows of its group', async () => {
    server();
    renderApp(<ExpiredServiceDialog />);
    open();
    const rows = await screen.findAllByTestId('expired-row');
    expect(rows.map((r) => r.getAttribute('data-device-name'))).toEqual(PAGE.map((d) => d.deviceName));
    const typeCells = screen.getAllByRole('rowheader');
    expect(typeCells.map((cell) => [cell.textContent, cell.getAttribute('rowspan')])).toEqual([
      ['CR-2 Cold Room Monitor', '2'],
      ['RCW-360 Wi-Fi Logger', '3'],
    ]);
    expect(within(rows[1]!).queryByRole('rowheader')).toBeNull();
  });

  it('disables the checkboxes of other types once a device is chosen', async () => {
    server();
    const user = userEvent.setup();
    renderApp(<ExpiredServiceDialog />);
    open();
    await screen.findAllByTestId('expired-row');
    await user.click(checkbox('Dock cold room'));
    expect(checkbox('Dock cold room')).toBeChecked();
    expect(checkbox('Warehouse 1 cold room')).toBeEnabled();
    for (const name of ['Cold room B logger', 'Vaccine fridge logger', 'Door logger']) {
      expect(checkbox(name)).toBeDisabled();
    }
    await user.click(checkbox('Dock cold room'));
    expect(checkbox('Cold room B logger')).toBeEnabled();
  });

  it('enables Batch recharge once a device is chosen and opens the recharge drawer with them', async () => {
    const api = server();
    const user = userEvent.setup();
    renderApp(<ExpiredServiceDialog />);
    open();
    await screen.findAllByTestId('expired-row');
    expect(screen.getByTestId('batch-recharge')).toBeDisabled();
    await user.click(checkbox('Cold room B logger'));
    await user.click(checkbox('Door logger'));
    expect(screen.getByTestId('batch-recharge')).toBeEnabled();
    expect(screen.getByText('2 devices selected')).toBeInTheDocument();
    await user.click(screen.getByTestId('batch-recharge'));
    await waitFor(() => expect(screen.queryByTestId('expired-dialog')).toBeNull());
    expect(screen.getByText('Batch recharge · 2 devices')).toBeInTheDocument();
    const asked = api
      .callsTo('GET /payment/PayServicePackages/selectDeviceDepositInfo')
      .map((call) => call.params.get('deviceId'));
    expect(asked).toEqual(['21', '23']);
  });

  it('offers no device the caller may only read for a batch recharge, and says why', async () => {
    const readOnly = row(12, 1, 'CR-2 Cold Room Monitor', 'Warehouse 1 cold room', 1);
    fakeServer({ [ROUTE]: () => envelope({ list: [PAGE[0]!, readOnly], total: 2 }) });
    const user = userEvent.setup();
    renderApp(<ExpiredServiceDialog />);
    open();
    const [own, warehouse] = await screen.findAllByTestId('expired-row');
    expect(checkbox('Warehouse 1 cold room')).toBeDisabled();
    expect(warehouse).toHaveAttribute('title', 'Read-only: you are a member of the organization that owns this device');
    expect(within(warehouse!).getByTestId('read-only')).toHaveTextContent('Read-only');
    expect(within(own!).queryByTestId('read-only')).toBeNull();
    await user.click(checkbox('Dock cold room'));
    expect(checkbox('Warehouse 1 cold room')).toBeDisabled(); // of the chosen type, still not
    expect(screen.getByTestId('batch-recharge')).toBeEnabled();
  });

  it('links each device name to the device list filtered by it, closing the dialog', async () => {
    server();
    const user = userEvent.setup();
    renderApp(<ExpiredServiceDialog />);
    open();
    await screen.findAllByTestId('expired-row');
    const link = screen.getByRole('link', { name: 'Vaccine fridge logger' });
    expect(link).toHaveAttribute('href', '/device/list?deviceName=Vaccine+fridge+logger');
    await user.click(link);
    expect(screen.getByTestId('location')).toHaveTextContent('/device/list?deviceName=Vaccine+fridge+logger');
    await waitFor(() => expect(screen.queryByTestId('expired-dialog')).toBeNull());
  });

  it('re-queries 800 ms after the filter changes, not before', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    const api = server();
    renderApp(<ExpiredServiceDialog />);
    open();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(screen.getAllByTestId('expired-row')).toHaveLength(5);
    expect(api.callsTo(ROUTE)).toHaveLength(1);

    fireEvent.change(screen.getByTestId('expired-flag'), { target: { value: '3' } });
    fireEvent.change(screen.getByTestId('expired-flag'), { target: { value: '1' } });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(FILTER_DEBOUNCE_MS - 1);
    });
    expect(api.callsTo(ROUTE)).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(api.callsTo(ROUTE)).toHaveLength(2);
    expect(api.callsTo(ROUTE)[1]!.params.get('expiredFlag')).toBe('1');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(screen.getAllByTestId('expired-row').map((r) => r.dataset.deviceName)).toEqual(['Vaccine fridge logger']);
  });

  it('clears the choice when the filter changes', async () => {
    server();
    const user = userEvent.setup();
    renderApp(<ExpiredServiceDialog />);
    open();
    await screen.findAllByTestId('expired-row');
    await user.click(checkbox('Door logger'));
    await user.selectOptions(screen.getByTestId('expired-flag'), '4');
    expect(screen.getByTestId('batch-recharge')).toBeDisabled();
  });

  it('opens with the filter it is given', async () => {
    const api = server();
    renderApp(<ExpiredServiceDialog />);
    open(1);
    await screen.findAllByTestId('expired-row');
    expect(screen.getByTestId('expired-flag')).toHaveValue('1');
    expect(api.callsTo(ROUTE)[0]!.params.get('expiredFlag')).toBe('1');
  });

  it('pages through the devices', async () => {
    const api = server();
    const user = userEvent.setup();
    renderApp(<ExpiredServiceDialog />);
    open();
    await screen.findAllByTestId('expired-row');
    expect(screen.getByText('6 in total')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(screen.getAllByTestId('expired-row')).toHaveLength(1));
    expect(api.callsTo(ROUTE).at(-1)!.params.get('start')).toBe('2');
    expect(screen.getByText('2 / 2')).toBeInTheDocument();
  });

  it('says so when no device is in the chosen state', async () => {
    fakeServer({ [ROUTE]: () => envelope({ list: [], total: 0 }) });
    renderApp(<ExpiredServiceDialog />);
    open();
    expect(await screen.findByText('No devices in this state')).toBeInTheDocument();
  });

  it('closes with Cancel', async () => {
    server();
    const user = userEvent.setup();
    renderApp(<ExpiredServiceDialog />);
    open();
    await screen.findAllByTestId('expired-row');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('expired-dialog')).toBeNull());
  });
});
