/**
 * How the screens say a device is read-only for the caller (see ../access.ts): a tag beside the
 * device, and the same reason as the tooltip of each change that is not offered.
 */
import { Tag, Tooltip } from '@blueprintjs/core';
import { LockIcon, ShareIcon } from '@blueprintjs/icons';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import './readOnly.css';

/** Why a device is read-only for the caller, in the current language (for a row's title, a callout). */
export function useReadOnlyReason(): string {
  return useTranslation('devices').t('access.readOnlyReason');
}

/** What makes a device read-only: shared with the caller (the share's template), or a member's device. */
interface ReadOnlySource {
  sharedWithMe?: boolean;
}

/** Why the caller may not change this device's element: its share's template, or its organization. */
export function useDeviceReadOnlyReason(device?: ReadOnlySource): string {
  const { t } = useTranslation('devices');
  return t(device?.sharedWithMe ? 'sharing.notGranted' : 'access.readOnlyReason');
}

/** "Shared by alice": a device someone shared with the caller, who holds what the share's template grants. */
export function SharedTag({ ownerName }: { ownerName: string }) {
  const { t } = useTranslation('devices');
  return (
    <Tag minimal round intent="primary" icon={<ShareIcon />} className="jc-read-only" data-testid="shared-by">
      {t('sharing.sharedBy', { name: ownerName })}
    </Tag>
  );
}

/** "Read-only", with the reason as its tooltip; focusable, so the reason is there for keyboards too. */
export function ReadOnlyTag() {
  const { t } = useTranslation('devices');
  const reason = useReadOnlyReason();
  return (
    <Tooltip content={reason} placement="top" className="jc-read-only-anchor">
      <Tag
        minimal
        round
        icon={<LockIcon />}
        className="jc-read-only"
        tabIndex={0}
        aria-label={reason}
        data-testid="read-only"
      >
        {t('access.readOnly')}
      </Tag>
    </Tooltip>
  );
}

export interface ReadOnlyReasonProps {
  /** The disabled control. */
  children: ReactElement;
  /** A class of the element around it (where it sits in a layout). */
  className?: string;
  /** The device, when it may be one shared with the caller (the reason then names the share). */
  device?: ReadOnlySource;
}

/**
 * A change that the caller may not make: `children` (drawn disabled by the caller, preferably an
 * AnchorButton, which still shows a tooltip) under the read-only reason.
 */
export function ReadOnlyReason({ children, className, device }: ReadOnlyReasonProps) {
  return (
    <Tooltip content={useDeviceReadOnlyReason(device)} placement="top" className={className ? `jc-read-only-anchor ${className}` : 'jc-read-only-anchor'}>
      {children}
    </Tooltip>
  );
}
