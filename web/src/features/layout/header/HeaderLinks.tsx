import { AnchorButton, Button, PopoverNext, Tooltip } from '@blueprintjs/core';
import { ChatIcon, CogIcon, DownloadIcon, HeadsetIcon, HelpIcon } from '@blueprintjs/icons';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { linkOffered } from '@/app/offered';
import { useReadyCount } from '@/lib/api/exports';
import { editionConfig } from '@/lib/config';

export const DOWNLOAD_PATH = '/consumer/download';
export const HELP_PATH = '/help/center';

/** Where customer service is reached: the configured `customerService` site, else the help centre. */
export function customerServiceUrl(): string {
  return editionConfig().externalLinks?.customerService ?? HELP_PATH;
}

/** Which of the header's links lead to something real (app/offered.ts): the rest are left out. */
export interface HeaderOffers {
  download: boolean;
  help: boolean;
  customerService: boolean;
  vip: boolean;
}

export function headerOffers(vipPath: string): HeaderOffers {
  return {
    download: linkOffered(DOWNLOAD_PATH),
    help: linkOffered(HELP_PATH),
    customerService: linkOffered(customerServiceUrl()),
    vip: linkOffered(vipPath),
  };
}

export interface DownloadLinkProps {
  /** Show "Downloads" next to the icon. */
  showLabel: boolean;
}

/** The link to the user's download centre (exported files), with a badge of the files ready. */
export function DownloadLink({ showLabel }: DownloadLinkProps) {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const ready = useReadyCount(true).data?.count ?? 0;
  const go = (event: MouseEvent<HTMLElement>) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    navigate(DOWNLOAD_PATH);
  };
  const label = ready > 0 ? `${t('download')}: ${t('downloadReady', { count: ready })}` : t('download');
  const link = (
    <span className="jc-count-anchor">
      <AnchorButton variant="minimal" icon={<DownloadIcon />} href={DOWNLOAD_PATH} onClick={go} data-testid="download-link"
        data-count={ready} aria-label={showLabel && ready === 0 ? undefined : label} text={showLabel ? t('download') : undefined} />
      {ready > 0 && (
        <span className="jc-count-badge jc-download-count" aria-hidden="true" data-testid="download-count">
          {ready > 99 ? '99+' : ready}
        </span>
      )}
    </span>
  );
  return showLabel ? link : <Tooltip content={label} placement="bottom">{link}</Tooltip>;
}

/** The help centre, opened in a new window so the console stays where it is. */
export function HelpLink() {
  const { t } = useTranslation('layout');
  return (
    <Tooltip content={t('help')} placement="bottom">
      <AnchorButton variant="minimal" icon={<HelpIcon />} href={HELP_PATH} target="_blank" rel="noopener" aria-label={t('help')}
        data-testid="help-link" />
    </Tooltip>
  );
}

/** Customer service: a short note and the way to reach the support team. */
export function CustomerService() {
  const { t } = useTranslation('layout');
  return (
    <PopoverNext
      placement="bottom-end"
      content={
        <div className="jc-service">
          <strong>{t('service.label')}</strong>
          <p>{t('service.text')}</p>
          <AnchorButton intent="primary" icon={<ChatIcon />} href={customerServiceUrl()} target="_blank" rel="noopener"
            text={t('service.contact')} />
        </div>
      }
    >
      <Tooltip content={t('service.label')} placement="bottom">
        <Button variant="minimal" icon={<HeadsetIcon />} aria-label={t('service.label')} data-testid="customer-service" />
      </Tooltip>
    </PopoverNext>
  );
}

export interface SettingsButtonProps {
  /** Opens the display settings drawer. */
  onOpen: () => void;
}

/** The gear that opens the display settings. */
export function SettingsButton({ onOpen }: SettingsButtonProps) {
  const { t } = useTranslation('layout');
  return (
    <Tooltip content={t('settings.open')} placement="bottom">
      <Button variant="minimal" icon={<CogIcon />} aria-label={t('settings.open')} data-testid="settings-button" onClick={onOpen} />
    </Tooltip>
  );
}
