import { Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

/** The full-screen loading overlay (spec seed 000 section 2). */
export function FullScreenLoading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="jc-fullscreen-loading" role="status" aria-live="polite">
      <Spinner size={48} />
      <span>{label ?? t('common:loading')}</span>
    </div>
  );
}
