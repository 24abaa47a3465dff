/**
 * The "Auto-renew on" tag of a device whose service renews itself (agreementStatus set): a click
 * opens the current-service modal, where the renewal can be cancelled (spec seed 000 sections 2
 * and 4). Once cancelled (and announced), the modal closes and the device lists and the recharge
 * drawer are asked again, so the tag goes and a level can be chosen without the un-agreement step.
 * On a device the caller may only read, the modal shows the renewal without offering to cancel it.
 */
import { Tag } from '@blueprintjs/core';
import { AutomaticUpdatesIcon } from '@blueprintjs/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rechargeKeys } from './api/levels';
import { CurrentServiceDrawer, type ServiceDevice } from './CurrentServiceDrawer';

export interface AutoRenewTagProps {
  device: ServiceDevice;
  large?: boolean;
  /** The caller may only read the device: cancelling is not offered. */
  readOnly?: boolean;
}

export function AutoRenewTag({ device, large = false, readOnly = false }: AutoRenewTagProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeAlerts' });
  const queryClient = useQueryClient();
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <Tag
        intent="success"
        minimal
        round
        interactive
        size={large ? 'large' : undefined}
        icon={<AutomaticUpdatesIcon />}
        onClick={() => setOpen(true)}
        data-testid="auto-renew-tag"
        htmlTitle={t('service.title')}
      >
        {t('service.autoRenewOn')}
      </Tag>
      <CurrentServiceDrawer
        isOpen={isOpen}
        device={device}
        readOnly={readOnly}
        onClose={() => setOpen(false)}
        onCancelled={() => {
          setOpen(false);
          void queryClient.invalidateQueries({ queryKey: ['devices'] });
          void queryClient.invalidateQueries({ queryKey: rechargeKeys.all });
        }}
      />
    </>
  );
}
