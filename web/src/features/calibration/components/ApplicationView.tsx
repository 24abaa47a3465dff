import { HTMLTable } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Application } from '@/lib/api/calibration';
import { useMoney } from './money';
import { useTypeName } from './typeNames';

/** An application's summary: number, status, devices with their prices, the total and the details (a draft has no number). */
export function ApplicationView({ application }: { application: Application }) {
  const { t, i18n } = useTranslation('calibration');
  const money = useMoney();
  const typeName = useTypeName();
  const details = application.details;
  const row = (label: string, value: string | null | undefined) =>
    value ? <div className="jc-cal-pair"><dt>{label}</dt><dd>{value}</dd></div> : null;
  return (
    <section className="jc-cal-summary" data-testid="calibration-summary">
      {application.applicationNumber && <dl className="jc-cal-pairs">
        <div className="jc-cal-pair">
          <dt>{t('field.number')}</dt>
          <dd data-testid="calibration-number">{application.applicationNumber}</dd>
        </div>
        {row(t('field.status'), t(`status.${application.status}`))}
        {row(t('field.createdAt'), new Date(application.createdAt).toLocaleString(i18n.language))}
      </dl>}
      <HTMLTable compact className="jc-cal-table jc-phone-cards">
        <thead>
          <tr>
            <th>#</th><th>{t('field.deviceType')}</th><th>{t('field.serialNumber')}</th><th>{t('field.service')}</th>
            <th>{t('field.price')}</th>
          </tr>
        </thead>
        <tbody>
          {application.devices.map((line) => (
            <tr key={line.index} data-testid="calibration-summary-line">
              <td data-label="#">{line.index}</td>
              <td data-label={t('field.deviceType')}>{typeName(line.deviceTypeId)} · {line.model}</td>
              <td data-label={t('field.serialNumber')}><span className="jc-cal-serial">{line.serial}</span></td>
              <td data-label={t('field.service')}>
                {t(`service.${line.service}`)}{line.pointsNote ? ` (${line.pointsNote})` : ''}
              </td>
              <td data-label={t('field.price')}>{money(line.price, application.currency)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <p className="jc-cal-total" data-testid="calibration-summary-total">
        {t('field.total')}: <strong>{money(application.totalFee, application.currency)}</strong>
      </p>
      {details && (
        <dl className="jc-cal-pairs">
          {row(t('field.customerName'), details.customerName)}
          {row(t('field.contactName'), [details.contactName, details.contactPhone, details.contactEmail].filter(Boolean).join(' · '))}
          {row(t('field.returnAddress'), details.returnAddress)}
          {row(t('field.invoiceTitle'), details.invoice ? `${details.invoice.invoiceTitle}${details.invoice.taxNumber ? ` · ${details.invoice.taxNumber}` : ''}` : null)}
          {row(t('field.remark'), details.remark)}
        </dl>
      )}
    </section>
  );
}
