import { Button, FormGroup, InputGroup } from '@blueprintjs/core';
import { DuplicateIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';

/** The address the provider sends payment notifications to, registered at the provider by hand: read-only, with a copy button. */
export function NotifyUrl({ url }: { url: string }) {
  const { t } = useTranslation('platforms');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      notify.success(t('notify.copied'));
    } catch {
      notify.error(t('notify.copyFailed'));
    }
  };
  return (
    <FormGroup label={t('notify.label')} labelFor="pc-notify-url" helperText={t('notify.help')}>
      <InputGroup id="pc-notify-url" readOnly value={url} className="jc-pf-mono" data-testid="pc-notify-url"
        onFocus={(event) => event.currentTarget.select()}
        rightElement={<Button variant="minimal" icon={<DuplicateIcon />} aria-label={t('notify.copy')} title={t('notify.copy')}
          onClick={() => void copy()} data-testid="pc-copy-notify-url" />} />
    </FormGroup>
  );
}
