import { Button, Classes, NonIdealState, Spinner, Switch, Tag } from '@blueprintjs/core';
import { ArrowRightIcon, ErrorIcon, InboxIcon, RefreshIcon, TickIcon, CrossIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PagerFooter } from '@/components/PagerFooter';
import { useSession } from '@/lib/session';
import {
  MESSAGE_TARGETS, useAnswer, useMarkRead, useSystemMessages, type MessageTarget, type SystemMessage,
} from '../api/systemMessages';

const isTarget = (target: string | null): target is MessageTarget => target !== null && target in MESSAGE_TARGETS;

/** The caller's system messages, newest first: unread ones stand out, an invitation is approved or rejected once. */
export function SystemMessages() {
  const { t } = useTranslation('messages');
  const [start, setStart] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [unread, setUnread] = useState(false);
  const query = useSystemMessages({ start, pageSize, unread });
  const markRead = useMarkRead();
  const page = query.data;

  let body;
  if (query.isPending) body = <Spinner className="jc-msg-state" size={32} />;
  else if (query.isError && !page) {
    body = (
      <NonIdealState icon={<ErrorIcon />} title={t('system.failed')} className="jc-msg-state"
        action={<Button icon={<RefreshIcon />} text={t('failed.retry')} onClick={() => void query.refetch()} />} />
    );
  } else if (!page || page.data.length === 0) {
    body = (
      <div data-testid="system-empty">
        <NonIdealState icon={<InboxIcon />} title={t('system.emptyTitle')} description={t(unread ? 'system.emptyUnread' : 'system.emptyText')} className="jc-msg-state" />
      </div>
    );
  } else {
    body = (
      <ul className="jc-sys-list" data-testid="system-messages">
        {page.data.map((message) => <MessageItem key={message.messageId} message={message} />)}
      </ul>
    );
  }

  return (
    <>
      <div className="jc-sys-bar">
        <Switch checked={unread} label={t('system.unreadOnly')} onChange={() => { setUnread(!unread); setStart(1); }} />
        <Button icon={<TickIcon />} variant="outlined" text={t('system.markAllRead')} loading={markRead.isPending}
          onClick={() => markRead.mutate(undefined)} data-testid="mark-all-read" />
      </div>
      <div className={`jc-msg-body${query.isPlaceholderData ? ' is-stale' : ''}`} aria-busy={query.isFetching}>{body}</div>
      {page && page.totalCount > 0 && (
        <PagerFooter page={start} pageSize={pageSize} total={page.totalCount} onChange={setStart}
          onPageSizeChange={(size) => { setPageSize(size); setStart(1); }} disabled={query.isFetching} />
      )}
    </>
  );
}

function MessageItem({ message }: { message: SystemMessage }) {
  const { t, i18n } = useTranslation('messages');
  const markRead = useMarkRead();
  const answer = useAnswer();
  // In the zone the account chose (its page), as the server writes times, else the browser's.
  const zone = useSession().info?.baseAccount.timeZone ?? undefined;
  const when = new Date(message.createdAt).toLocaleString(i18n.language, { timeZone: zone });
  // Where an approved invitation leads: the organizations page, once the session holds it.
  const organizations = useSession().permissions.has('organization.list');
  const decide = (decision: 'approved' | 'rejected') => answer.mutate({ messageId: message.messageId, decision });
  return (
    <li className={`jc-sys-item${message.read ? '' : ' is-unread'}`} data-testid="system-message" data-kind={message.kind}>
      <div className="jc-sys-head">
        {!message.read && <span className="jc-sys-dot" aria-label={t('system.unread')} />}
        <strong className="jc-sys-title">{message.title}</strong>
        <Tag minimal round>{t(`system.kinds.${message.kind}`)}</Tag>
        <time className={Classes.TEXT_MUTED} dateTime={message.createdAt}>{when}</time>
      </div>
      <p className="jc-sys-content">{message.content}</p>
      <div className="jc-sys-actions">
        {isTarget(message.target) && (
          // Opening the page it points to counts as reading the message.
          <Link to={MESSAGE_TARGETS[message.target]} className="jc-sys-link" data-testid="message-link"
            onClick={() => { if (!message.read) markRead.mutate([message.messageId]); }}>
            {t(`system.open.${message.target}`)} <ArrowRightIcon size={12} />
          </Link>
        )}
        {message.needsDecision && message.decision === null && (
          <>
            <Button intent="success" icon={<TickIcon />} text={t('system.approve')} loading={answer.isPending}
              onClick={() => decide('approved')} data-testid="approve" />
            <Button intent="danger" variant="outlined" icon={<CrossIcon />} text={t('system.reject')} disabled={answer.isPending}
              onClick={() => decide('rejected')} data-testid="reject" />
          </>
        )}
        {message.kind === 'invitation' && message.decision === 'approved' && organizations && (
          <Link to="/organization/list" className="jc-sys-link" data-testid="message-organizations">
            {t('system.open.organizations')} <ArrowRightIcon size={12} />
          </Link>
        )}
        {message.decision && (
          <Tag intent={message.decision === 'approved' ? 'success' : 'danger'} minimal data-testid="decision">
            {t(`system.decision.${message.decision}`)}
          </Tag>
        )}
        {!message.read && !message.needsDecision && (
          <Button variant="minimal" text={t('system.markRead')} onClick={() => markRead.mutate([message.messageId])} data-testid="mark-read" />
        )}
      </div>
    </li>
  );
}
