import { AnchorButton, Alert, Button, Callout, Classes, Dialog, DialogBody, DialogFooter, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import {
  AutomaticUpdatesIcon, DisableIcon, ErrorIcon, InfoSignIcon, RefreshIcon, WarningSignIcon,
} from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReadOnlyReason } from '@/features/devices/components/ReadOnly';
import { ApiError, CancelledError } from '@/lib/http';
import { notify } from '@/lib/notify';
import { useCancelAgreement, useCurrentService, type CurrentService } from './api/service';
import { formatMinute, formatMoney } from './format';
import './alertDrawers.css';

export const CURRENT_SERVICE_WIDTH = 445;

/** The device a service drawer is about. */
export interface ServiceDevice {
  deviceId: number;
  deviceName?: string | null;
}

export interface CurrentServiceDrawerProps {
  /** Whether the modal is shown; the agreement is asked afresh at each opening. */
  isOpen: boolean;
  /** The device whose automatic renewal is shown. */
  device: ServiceDevice;
  /** The caller may only read the device: cancelling is shown disabled, with the reason. */
  readOnly?: boolean;
  /** Closes the modal (Close, Esc, the close button). */
  onClose(): void;
  /** Auto-renew was cancelled: the parent refreshes its list. */
  onCancelled?(deviceId: number): void;
}

/**
 * The current service of a device with its automatic renewal (modal 445 wide): package, fee of
 * each renewal and the next renewal, and a Cancel auto-renew button (confirmed first).
 */
export function CurrentServiceDrawer({ isOpen, device, readOnly = false, onClose, onCancelled }: CurrentServiceDrawerProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      title={t('service.title')}
      icon={<AutomaticUpdatesIcon />}
      className="jc-agreement-dialog"
      style={{ width: CURRENT_SERVICE_WIDTH }}
    >
      {isOpen && <CurrentServiceBody device={device} readOnly={readOnly} onClose={onClose} onCancelled={onCancelled} />}
    </Dialog>
  );
}

function CurrentServiceBody({ device, readOnly, onClose, onCancelled }: Omit<CurrentServiceDrawerProps, 'isOpen'>) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  const service = useCurrentService(device.deviceId);
  return (
    <>
      <DialogBody>
        <AgreementDetails device={device} service={service.data} pending={service.isPending} failed={service.isError} onRetry={() => void service.refetch()} />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('close')} onClick={onClose} />
            {service.data &&
              (readOnly ? (
                <ReadOnlyReason>
                  <AnchorButton intent="danger" variant="outlined" icon={<DisableIcon />} disabled text={t('service.cancelAutoRenew')}
                    data-testid="cancel-auto-renew" />
                </ReadOnlyReason>
              ) : (
                <CancelAutoRenewButton device={device} onCancelled={(id) => onCancelled?.(id)} />
              ))}
          </>
        }
      />
    </>
  );
}

interface AgreementDetailsProps {
  device: ServiceDevice;
  /** The agreement; null when the device has none; undefined while unknown. */
  service: CurrentService | null | undefined;
  pending: boolean;
  failed: boolean;
  onRetry(): void;
}

/** The agreement as a short list (package, fee of each renewal, next renewal), or why there is none. */
export function AgreementDetails({ device, service, pending, failed, onRetry }: AgreementDetailsProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  if (pending) return <Spinner size={28} className="jc-agreement-loading" aria-label={t('loading')} />;
  if (failed) {
    return (
      <NonIdealState
        icon={<ErrorIcon />}
        title={t('service.loadFailed')}
        action={<Button icon={<RefreshIcon />} text={t('retry')} onClick={onRetry} />}
      />
    );
  }
  if (!service) {
    return (
      <NonIdealState
        className="jc-agreement-none"
        icon={<AutomaticUpdatesIcon />}
        title={t('service.none')}
        description={t('service.noneDetail')}
      />
    );
  }
  return (
    <div className="jc-agreement" data-testid="current-service">
      <div className="jc-agreement-head">
        {device.deviceName && <span className="jc-agreement-device">{device.deviceName}</span>}
        <Tag intent="success" minimal round icon={<AutomaticUpdatesIcon />}>
          {t('service.autoRenewOn')}
        </Tag>
      </div>
      <dl className="jc-agreement-list">
        <dt>{t('service.level')}</dt>
        <dd className="jc-agreement-level">{service.levelName}</dd>
        <dt>{t('service.fee')}</dt>
        <dd>
          <span className="jc-agreement-fee">{formatMoney(service.totalFee, service.currency)}</span>
          <span className={Classes.TEXT_MUTED}> {t('service.perRenewal')}</span>
        </dd>
        <dt>{t('service.next')}</dt>
        <dd>{formatMinute(service.nextExecutionTime)}</dd>
      </dl>
      <Callout icon={<InfoSignIcon />} className="jc-agreement-note" compact>
        {t('service.cancelNote')}
      </Callout>
    </div>
  );
}

interface CancelAutoRenewProps {
  device: ServiceDevice;
  /** After the agreement was cancelled (the success notice is shown already). */
  onCancelled(deviceId: number): void;
  /** The button's text; default 'Cancel auto-renew'. */
  text?: string;
}

/** 'Cancel auto-renew': a confirmation, then unAgreement; success is announced, failure shown for 4 s. */
export function CancelAutoRenewButton({ device, onCancelled, text }: CancelAutoRenewProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  const { t: common } = useTranslation('common');
  const cancel = useCancelAgreement();
  const [confirming, setConfirming] = useState(false);

  const confirm = async () => {
    try {
      await cancel.mutateAsync(device.deviceId);
    } catch (error) {
      setConfirming(false);
      if (error instanceof CancelledError) return;
      const message = error instanceof ApiError && error.message ? error.message : common('http.errorMessage');
      notify.error(message, common('http.errorTitle'));
      return;
    }
    setConfirming(false);
    notify.success(t('service.cancelled'));
    onCancelled(device.deviceId);
  };

  return (
    <>
      <Button
        intent="danger"
        variant="outlined"
        icon={<DisableIcon />}
        text={text ?? t('service.cancelAutoRenew')}
        onClick={() => setConfirming(true)}
        data-testid="cancel-auto-renew"
      />
      <Alert
        isOpen={confirming}
        intent="danger"
        icon={<WarningSignIcon />}
        confirmButtonText={t('service.confirmCancel')}
        cancelButtonText={t('service.keep')}
        loading={cancel.isPending}
        onConfirm={() => void confirm()}
        onCancel={() => setConfirming(false)}
        canEscapeKeyCancel={!cancel.isPending}
        className="jc-alert"
      >
        <p className="jc-alert-title">{t('service.confirmTitle')}</p>
        <p className="jc-alert-text">{device.deviceName ? t('service.confirmTextNamed', { name: device.deviceName }) : t('service.confirmText')}</p>
      </Alert>
    </>
  );
}
