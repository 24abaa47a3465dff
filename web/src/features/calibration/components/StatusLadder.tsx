import { useTranslation } from 'react-i18next';
import { isCancelled, LADDER } from '@/lib/api/calibration';

/** The steps of an application with the current one marked; a cancelled one says so instead. */
export function StatusLadder({ status }: { status: number }) {
  const { t } = useTranslation('calibration');
  if (isCancelled(status)) return <p className="jc-cal-cancelled" data-testid="calibration-ladder">{t(`status.${status}`)}</p>;
  return (
    <ol className="jc-cal-ladder" data-testid="calibration-ladder" aria-label={t('detail.ladder')}>
      {LADDER.map((step) => (
        <li key={step} className={step < status ? 'done' : step === status ? 'current' : ''}
          aria-current={step === status ? 'step' : undefined}>
          {t(`status.${step}`)}
        </li>
      ))}
    </ol>
  );
}
