import { AnchorButton, Tooltip } from '@blueprintjs/core';
import { NotificationsIcon } from '@blueprintjs/icons';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { permitsAction, usePermissions } from '@/lib/permissions';
import { useSession } from '@/lib/session';
import { MESSAGE_ROUTE, useUntreatedCount } from '@/lib/api/alarms';
import { messagesHref } from '../listQuery';
import '../messages.css';

/** Counts above this read as "99+". */
export const BADGE_MAX = 99;

export function badgeText(count: number): string {
  return count > BADGE_MAX ? `${BADGE_MAX}+` : String(count);
}

/**
 * The header's notification bell: the number of untreated alarms, polled every 30 s, leading to
 * the untreated alarm messages. Shown only to accounts that may read them (the count call is
 * refused otherwise, and a refusal would end the session).
 */
export function MessageBell() {
  const held = usePermissions();
  const { info } = useSession();
  if (!info || !permitsAction(held, MESSAGE_ROUTE, 'query')) return null;
  return <Bell accountId={info.baseAccount.id} />;
}

function Bell({ accountId }: { accountId: number }) {
  const { t } = useTranslation('messages');
  const navigate = useNavigate();
  const count = useUntreatedCount(accountId).data ?? 0;
  const href = count > 0 ? messagesHref({ state: 'untreated' }) : messagesHref();
  const status = count > 0 ? t('bell.untreated', { count }) : t('bell.none');
  const go = (event: MouseEvent<HTMLElement>) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey) return; // a new browser tab
    event.preventDefault();
    navigate(href);
  };
  return (
    <Tooltip content={`${t('bell.label')} · ${status}`} placement="bottom">
      <span className="jc-count-anchor">
        <AnchorButton
          variant="minimal"
          icon={<NotificationsIcon />}
          href={href}
          onClick={go}
          aria-label={`${t('bell.label')}: ${status}`}
          data-testid="message-bell"
          data-count={count}
        />
        {count > 0 && (
          <span className="jc-count-badge jc-msg-bell-count" aria-hidden="true" data-testid="message-bell-count">
            {badgeText(count)}
          </span>
        )}
      </span>
    </Tooltip>
  );
}
