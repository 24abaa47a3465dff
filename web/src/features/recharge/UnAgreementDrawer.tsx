import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { AutomaticUpdatesIcon, WarningSignIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { useCurrentService } from './api/service';
import { AgreementDetails, CancelAutoRenewButton, CURRENT_SERVICE_WIDTH, type ServiceDevice } from './CurrentServiceDrawer';
import './alertDrawers.css';

export interface UnAgreementDrawerProps {
  /** Whether it is shown: a level was clicked on a device with an auto-renew agreement. */
  isOpen: boolean;
  /** The device with the agreement. */
  device: ServiceDevice;
  /** Hides it (Keep auto-renew, Esc, the close button, and after a cancellation). */
  onClose(): void;
  /** Called with every closing, after `onClose`: the parent asks the device's service info again. */
  onClosed(): void;
}

/**
 * Shown when a level is clicked on a device renewed automatically: a change of package needs the
 * automatic renewal cancelled first, which it offers (confirmed, then unAgreement).
 */
export function UnAgreementDrawer({ isOpen, device, onClose, onClosed }: UnAgreementDrawerProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  const close = () => {
    onClose();
    onClosed();
  };
  return (
    <Dialog
      isOpen={isOpen}
      onClose={close}
      title={t('unAgreement.title')}
      icon={<AutomaticUpdatesIcon />}
      className="jc-agreement-dialog"
      style={{ width: CURRENT_SERVICE_WIDTH }}
    >
      {isOpen && <UnAgreementBody device={device} onClose={close} />}
    </Dialog>
  );
}

function UnAgreementBody({ device, onClose }: { device: ServiceDevice; onClose(): void }) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  const service = useCurrentService(device.deviceId);
  return (
    <>
      <DialogBody>
        <Callout intent="warning" icon={<WarningSignIcon />} title={t('unAgreement.heading')} className="jc-unagreement-intro">
          {t('unAgreement.explain')}
        </Callout>
        <AgreementDetails
          device={device}
          service={service.data}
          pending={service.isPending}
          failed={service.isError}
          onRetry={() => void service.refetch()}
        />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={service.data === null ? t('close') : t('unAgreement.keep')} onClick={onClose} />
            {service.data && <CancelAutoRenewButton device={device} onCancelled={onClose} />}
          </>
        }
      />
    </>
  );
}
