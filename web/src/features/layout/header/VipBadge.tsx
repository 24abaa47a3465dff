import { Button, Icon, Tag } from '@blueprintjs/core';
import { CrownIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AccountInfo } from '@/lib/api/accountInfo';
import { useSession } from '@/lib/session';

/** `premiumState.state` of a VIP member. */
export const PREMIUM_MEMBER = 1;
export const VIP_SERVICE_PATH = '/vip/service';
/** `baseAccount.accountType` of back-office accounts (operators, administrators; core AccountType.SYSTEM). */
export const BACK_OFFICE_ACCOUNT = 9;

/** Customers have a VIP level (member or standard); back-office accounts have none to show. */
export function hasVipLevel(info: AccountInfo): boolean {
  return info.baseAccount.accountType !== BACK_OFFICE_ACCOUNT;
}

export interface VipBadgeProps {
  /** Leave out the days left (narrow screens). */
  compact?: boolean;
  /** Show Renew / Open (only once the VIP service has a page). */
  withAction?: boolean;
}

/**
 * VIP members see the days left and Renew; other customers Standard and Upgrade (both lead to the
 * VIP service); back-office accounts nothing.
 */
export function VipBadge({ compact = false, withAction = true }: VipBadgeProps) {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const { info } = useSession();
  if (!info || !hasVipLevel(info)) return null;
  const member = info.premiumState.state === PREMIUM_MEMBER;
  const days = info.premiumState.expiredCount;
  return (
    <div className={`jc-vip${member ? ' jc-vip--member' : ''}`} data-testid="vip-badge">
      {member ? (
        <Tag round icon={<Icon icon={<CrownIcon />} size={12} />} className="jc-vip-tag">
          {t('vip.member')}
          {!compact && <span className="jc-vip-days">{t('vip.daysLeft', { count: days })}</span>}
        </Tag>
      ) : (
        <Tag round minimal className="jc-vip-tag jc-vip-tag--standard">
          {t('vip.standard')}
        </Tag>
      )}
      {withAction && <Button
        size="small"
        variant={member ? 'outlined' : 'solid'}
        intent={member ? 'none' : 'warning'}
        className="jc-vip-action"
        title={t(member ? 'vip.renewHint' : 'vip.openHint')}
        onClick={() => navigate(VIP_SERVICE_PATH)}
        text={t(member ? 'vip.renew' : 'vip.open')}
      />}
    </div>
  );
}
