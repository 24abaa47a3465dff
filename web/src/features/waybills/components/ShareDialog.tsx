import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, HTMLTable, InputGroup, Tag } from '@blueprintjs/core';
import { DuplicateIcon, LinkIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { formatInstant } from '@/lib/units';
import {
  SHARE_VALIDITIES, useRevokeShareLink, useShareLinks, useShareWaybill, type ShareValidity,
} from '../api/waybills';
import { fromLocalInput } from '../waybillForm';

/** Where a receiver opens a shared trip: the public quick query reads the token. */
export const shareUrl = (token: string, origin = window.location.origin) =>
  `${origin}/mobileQuick/query/detail?share=${encodeURIComponent(token)}`;

/** Makes a link to a waybill's trip report (shown once, to copy), lists the links with their opens, revokes them. */
export function ShareDialog({ waybillId, isOpen, onClose }: { waybillId: number; isOpen: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation('waybills');
  const links = useShareLinks(waybillId, isOpen);
  const share = useShareWaybill();
  const revoke = useRevokeShareLink();
  const [validity, setValidity] = useState<ShareValidity>('1d');
  const [endTime, setEndTime] = useState('');
  const [made, setMade] = useState<string | null>(null);
  const customMissing = validity === 'custom' && fromLocalInput(endTime) === null;
  const close = () => { setMade(null); onClose(); };

  const create = () => share.mutate({ id: waybillId, validity, endTime: fromLocalInput(endTime) }, {
    onSuccess: (link) => setMade(shareUrl(link.token)),
  });
  const copy = () => {
    if (!made) return;
    navigator.clipboard.writeText(made).then(() => notify.success(t('share.copied')), () => undefined);
  };
  return (
    <Dialog isOpen={isOpen} onClose={close} title={t('share.title')} icon={<LinkIcon />} className="jc-wb-dialog">
      <DialogBody>
        <div className="jc-wb-template">
          <FormGroup label={t('share.validity')} labelFor="waybill-share-validity" inline>
            <HTMLSelect id="waybill-share-validity" value={validity} data-testid="waybill-share-validity"
              onChange={(e) => setValidity(e.currentTarget.value as ShareValidity)}
              options={SHARE_VALIDITIES.map((v) => ({ value: v, label: t(`share.${v}`) }))} />
          </FormGroup>
          {validity === 'custom' && (
            <FormGroup label={t('share.endTime')} labelFor="waybill-share-end" inline
              helperText={customMissing ? t('share.endRequired') : undefined}>
              <InputGroup id="waybill-share-end" type="datetime-local" value={endTime} onValueChange={setEndTime}
                data-testid="waybill-share-end" />
            </FormGroup>
          )}
          <Button intent="primary" text={t('share.create')} loading={share.isPending} disabled={customMissing}
            onClick={create} data-testid="waybill-share-create" />
        </div>
        {made && (
          <Callout intent="success" data-testid="waybill-share-made">
            <p>{t('share.once')}</p>
            <div className="jc-wb-link">
              <InputGroup readOnly value={made} fill data-testid="waybill-share-url" aria-label={t('share.title')}
                onFocus={(e) => e.currentTarget.select()} />
              <Button icon={<DuplicateIcon />} text={t('share.copy')} onClick={copy} data-testid="waybill-share-copy" />
            </div>
          </Callout>
        )}
        <p className="jc-wb-section">{t('share.links')}</p>
        {(links.data ?? []).length === 0 ? <p data-testid="waybill-share-none">{t('share.noLinks')}</p> : (
          <div className="jc-wb-scroll">
            <HTMLTable compact striped className="jc-wb-table" data-testid="waybill-share-links">
              <thead><tr><th>{t('field.createdAt')}</th><th>{t('share.expires')}</th><th>{t('share.opens')}</th><th /><th /></tr></thead>
              <tbody>
                {(links.data ?? []).map((link) => (
                  <tr key={link.shareId} data-testid="waybill-share-link" data-active={link.active}>
                    <td data-label={t('field.createdAt')}>{formatInstant(link.createdAt, i18n.language, false)}</td>
                    <td data-label={t('share.expires')}>{formatInstant(link.expiresAt, i18n.language, false)}</td>
                    <td data-label={t('share.opens')} title={link.opens[0]
                      ? t('share.lastOpen', { at: formatInstant(link.opens[0].at, i18n.language), address: link.opens[0].address ?? '?' })
                      : undefined} data-testid="waybill-share-opens">{link.opens.length}</td>
                    <td>
                      <Tag minimal intent={link.active ? 'success' : 'none'}>{t(link.active ? 'share.active' : 'share.inactive')}</Tag>
                    </td>
                    <td className="jc-wb-actions">
                      {link.active && (
                        <Button variant="minimal" intent="danger" text={t('share.revoke')} data-testid="waybill-share-revoke"
                          loading={revoke.isPending && revoke.variables === link.shareId}
                          onClick={() => revoke.mutate(link.shareId, { onSuccess: () => notify.success(t('share.revoked')) })} />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        )}
      </DialogBody>
      <DialogFooter actions={<Button text={t('close')} onClick={close} />} />
    </Dialog>
  );
}
