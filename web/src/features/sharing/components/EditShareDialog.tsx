import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EndTimeField } from '@/components/EndTimeField';
import { useTemplates, useUpdateShare, type Share } from '@/lib/api/sharing';
import { notify } from '@/lib/notify';
import { endTimeFits, endTimeInstant, toLocalInput } from '@/lib/shareForm';

/** Changes the template or the end time of a share I made. */
export function EditShareDialog({ share, onClose }: { share: Share | null; onClose: () => void }) {
  const { t } = useTranslation('sharing');
  return (
    <Dialog isOpen={share !== null} onClose={onClose} className="jc-sh-dialog"
      title={t('editShare.title', { device: share?.deviceName ?? '', name: share?.shareeName ?? '' })}>
      {share !== null && <EditShareBody share={share} onDone={onClose} />}
    </Dialog>
  );
}

function EditShareBody({ share, onDone }: { share: Share; onDone: () => void }) {
  const { t } = useTranslation(['sharing', 'devices']);
  const templates = useTemplates();
  const update = useUpdateShare();
  const [templateId, setTemplateId] = useState(share.templateId);
  const [endTime, setEndTime] = useState(share.endTime ? toLocalInput(new Date(share.endTime)) : '');
  const [failure, setFailure] = useState<string | null>(null);
  const endError = endTimeFits(endTime) ? undefined : t('devices:sharing.error.endTime');

  const save = async () => {
    if (endError) return;
    setFailure(null);
    try {
      await update.mutateAsync({ id: share.id, templateId, endTime: endTimeInstant(endTime) });
      notify.success(t('editShare.saved'));
      onDone();
    } catch (error) {
      setFailure(error instanceof Error && error.message ? error.message : t('error.save'));
    }
  };

  return (
    <form onSubmit={(event) => { event.preventDefault(); void save(); }} noValidate data-testid="share-edit-form">
      <DialogBody>
        <FormGroup label={t('devices:sharing.template')} labelFor="share-edit-template">
          <HTMLSelect id="share-edit-template" fill value={templateId} onChange={(event) => setTemplateId(Number(event.currentTarget.value))}
            options={(templates.data ?? [{ id: share.templateId, name: share.templateName }]).map((template) => ({
              value: template.id, label: template.name,
            }))} data-testid="share-edit-template" />
        </FormGroup>
        <EndTimeField id="share-edit-end" value={endTime} onChange={setEndTime} error={endError} />
        {failure && <Callout intent="danger" data-testid="share-edit-error">{failure}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('save')} loading={update.isPending} disabled={Boolean(endError)}
          data-testid="share-edit-save" />
      </>} />
    </form>
  );
}
