import {
  Button,
  Checkbox,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { CreditCardIcon, ErrorIcon, TickCircleIcon, TimeIcon } from '@blueprintjs/icons';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Pager } from '@/components/Pager';
import { mayChange } from '@/features/devices/access';
import { ReadOnlyTag, useReadOnlyReason } from '@/features/devices/components/ReadOnly';
import { useRechargeFlow } from '@/features/recharge/RechargeFlow';
import { useSession } from '@/lib/session';
import {
  EXPIRED_FLAGS,
  EXPIRED_PAGE_SIZE,
  isExpiredFlag,
  useExpiredDevices,
  type ExpiredDevice,
  type ExpiredFlag,
} from './api/expired';
import { closeExpiredDialog, useExpiredDialogState } from './expiredDialogStore';
import {
  canSelect,
  daysUntil,
  deviceListPath,
  EMPTY_SELECTION,
  expiryTone,
  groupByType,
  localToday,
  toggleDevice,
  type Selection,
} from './expiredRows';
import { useDebouncedValue } from './useDebouncedValue';
import './dialogs.css';

export const EXPIRED_DIALOG_WIDTH = 700;
export const FILTER_DEBOUNCE_MS = 800;

/** The expired-service dialog (spec seed 000 section 2), opened with `openExpiredDialog()`. */
export function ExpiredServiceDialog() {
  const { t } = useTranslation('dialogs');
  const { isOpen, flag, openedAt } = useExpiredDialogState();
  const accountId = useSession().info?.baseAccount.id;
  // Batch recharge closes the dialog and opens the recharge drawer with the chosen devices.
  const recharge = useRechargeFlow();
  if (accountId === undefined) return null;
  return (
    <>
      <Dialog
        isOpen={isOpen}
        onClose={closeExpiredDialog}
        title={t('expired.title')}
        icon={<TimeIcon />}
        className="jc-expired-dialog"
        style={{ width: EXPIRED_DIALOG_WIDTH }}
      >
        <ExpiredDevicesPanel
          key={openedAt}
          accountId={accountId}
          initialFlag={flag}
          onClose={closeExpiredDialog}
          onRecharge={recharge.open}
        />
      </Dialog>
      {recharge.drawer}
    </>
  );
}

interface PanelProps {
  accountId: number;
  initialFlag: ExpiredFlag;
  onClose: () => void;
  /** Batch recharge of the chosen devices (one type). */
  onRecharge: (deviceIds: number[]) => void;
}

function ExpiredDevicesPanel({ accountId, initialFlag, onClose, onRecharge }: PanelProps) {
  const { t } = useTranslation('dialogs');
  const [flag, setFlag] = useState<ExpiredFlag>(initialFlag);
  const queryFlag = useDebouncedValue(flag, FILTER_DEBOUNCE_MS);
  // The page belongs to a filter: a new filter starts again on page 1.
  const [paging, setPaging] = useState({ flag: initialFlag, start: 1 });
  const start = paging.flag === queryFlag ? paging.start : 1;
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const query = useExpiredDevices({ accountId, expiredFlag: queryFlag, start, pageSize: EXPIRED_PAGE_SIZE });
  const page = query.data;

  const changeFlag = (next: ExpiredFlag) => {
    setFlag(next);
    setSelection(EMPTY_SELECTION);
  };
  const recharge = () => {
    onClose();
    onRecharge([...selection.keys()]);
  };

  return (
    <div className="jc-dialog-content" data-testid="expired-dialog">
      <DialogBody className="jc-expired-body">
        <div className="jc-expired-toolbar">
          <FormGroup label={t('expired.filter')} labelFor="jc-expired-flag" inline className="jc-expired-filter">
            <HTMLSelect
              id="jc-expired-flag"
              data-testid="expired-flag"
              value={flag}
              onChange={(event) => {
                const next = Number(event.currentTarget.value);
                if (isExpiredFlag(next)) changeFlag(next);
              }}
              options={EXPIRED_FLAGS.map((value) => ({ value, label: t(`expired.flag.${value}`) }))}
            />
          </FormGroup>
          <span className={Classes.TEXT_MUTED}>{t('expired.oneTypeHint')}</span>
        </div>
        <div className="jc-expired-table-wrap" aria-busy={query.isFetching}>
          {page === undefined ? (
            query.isError ? (
              <NonIdealState icon={<ErrorIcon />} title={t('expired.loadFailed')} className="jc-expired-empty" />
            ) : (
              <Spinner size={32} className="jc-expired-loading" />
            )
          ) : page.list.length === 0 ? (
            <NonIdealState icon={<TickCircleIcon />} title={t('expired.empty')} className="jc-expired-empty" />
          ) : (
            <ExpiredTable
              devices={page.list}
              selection={selection}
              stale={query.isPlaceholderData}
              onToggle={(device) => setSelection((current) => toggleDevice(current, device))}
              onOpenDevice={onClose}
            />
          )}
        </div>
        {page !== undefined && page.total > 0 && (
          <Pager
            page={start}
            pageSize={EXPIRED_PAGE_SIZE}
            total={page.total}
            disabled={query.isFetching}
            onChange={(next) => setPaging({ flag: queryFlag, start: next })}
          />
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('expired.cancel')} onClick={onClose} />
            <Button
              intent="primary"
              icon={<CreditCardIcon />}
              text={t('expired.batchRecharge')}
              data-testid="batch-recharge"
              disabled={selection.size === 0}
              onClick={recharge}
            />
          </>
        }
      >
        {selection.size > 0 && (
          <span className="jc-expired-selected">
            {t('expired.selected', { count: selection.size })}
            <Button variant="minimal" size="small" text={t('expired.clear')} onClick={() => setSelection(EMPTY_SELECTION)} />
          </span>
        )}
      </DialogFooter>
    </div>
  );
}

interface TableProps {
  devices: readonly ExpiredDevice[];
  selection: Selection;
  /** The rows are the previous page's, while the next one loads. */
  stale: boolean;
  onToggle: (device: ExpiredDevice) => void;
  onOpenDevice: () => void;
}

function ExpiredTable({ devices, selection, stale, onToggle, onOpenDevice }: TableProps) {
  const { t } = useTranslation('dialogs');
  const rows = useMemo(() => groupByType(devices), [devices]);
  const today = localToday();
  const readOnlyReason = useReadOnlyReason();
  return (
    <HTMLTable compact bordered className={stale ? 'jc-expired-table jc-stale' : 'jc-expired-table'}>
      <thead>
        <tr>
          <th scope="col">{t('expired.column.type')}</th>
          <th scope="col" className="jc-expired-check">
            <span className={Classes.TEXT_OVERFLOW_ELLIPSIS}>{t('expired.column.select')}</span>
          </th>
          <th scope="col">{t('expired.column.name')}</th>
          <th scope="col">{t('expired.column.guid')}</th>
          <th scope="col">{t('expired.column.expiry')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ device, groupSize }) => (
          <tr
            key={device.id}
            data-testid="expired-row"
            data-device-name={device.deviceName}
            data-access={device.access}
            title={mayChange(device) ? undefined : readOnlyReason}
          >
            {groupSize > 0 && (
              <th scope="row" rowSpan={groupSize} className="jc-expired-type">
                {device.deviceTypeName}
              </th>
            )}
            <td className="jc-expired-check">
              <Checkbox
                className="jc-expired-checkbox jc-hit-input"
                checked={selection.has(device.id)}
                disabled={!canSelect(selection, device)}
                onChange={() => onToggle(device)}
                aria-label={t('expired.choose', { name: device.deviceName })}
              />
            </td>
            <td>
              <span className="jc-expired-name-line">
                <Link to={deviceListPath(device.deviceName)} onClick={onOpenDevice} className="jc-expired-name">
                  {device.deviceName}
                </Link>
                {!mayChange(device) && <ReadOnlyTag />}
              </span>
            </td>
            <td className="jc-mono">{device.deviceGuid}</td>
            <td>
              <ExpiryDate date={device.serviceExpiredDate} today={today} />
            </td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

const TONE_INTENT = { expired: 'danger', soon: 'warning', later: 'none', lifelong: 'success' } as const;

function ExpiryDate({ date, today }: { date: string; today: string }) {
  const { t } = useTranslation('dialogs');
  const tone = expiryTone(date, today);
  if (tone === 'lifelong') {
    return (
      <Tag minimal round intent={TONE_INTENT.lifelong} icon={<TickCircleIcon />}>
        {t('expired.lifelong')}
      </Tag>
    );
  }
  const days = daysUntil(date, today);
  const label =
    days < 0 ? t('expired.expiredAgo', { count: -days }) : days === 0 ? t('expired.expiresToday') : t('expired.daysLeft', { count: days });
  return (
    <span className="jc-expiry-date">
      <span>{date}</span>
      <Tag minimal round intent={TONE_INTENT[tone]}>
        {label}
      </Tag>
    </span>
  );
}
