/**
 * The paying drawer's "Renew automatically" switch (issue 19): off until the customer turns it on,
 * with what it does under it. The server takes `autoRenew` for one device buying a time-limited
 * year option only (1152 otherwise), so the switch is offered there only (`offersAutoRenew`).
 */
import { Classes, Switch } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { YearOption } from '../api/levels';
import { isLifelong } from '../values';

/** Whether automatic renewal may be asked for: one device, and a year option that ends. */
export function offersAutoRenew(deviceCount: number, option: YearOption | undefined): boolean {
  return deviceCount === 1 && option !== undefined && !option.lifelong && !isLifelong({ months: option.timeLength });
}

export interface AutoRenewOptionProps {
  checked: boolean;
  /** The level renewed, named in the explanation. */
  levelName: string;
  onChange: (checked: boolean) => void;
}

export function AutoRenewOption({ checked, levelName, onChange }: AutoRenewOptionProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge.paying.autoRenew' });
  return (
    <div className="jc-auto-renew-option" data-testid="auto-renew-option">
      <Switch
        checked={checked}
        label={t('label')}
        onChange={(event) => onChange(event.currentTarget.checked)}
        className="jc-auto-renew-switch"
        data-testid="auto-renew-switch"
      />
      <p className={`jc-auto-renew-note ${Classes.TEXT_MUTED}`} data-testid="auto-renew-note">
        {t('note', { level: levelName })}
      </p>
    </div>
  );
}
