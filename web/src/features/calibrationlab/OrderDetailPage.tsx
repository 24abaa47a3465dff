import { Alert, Button, Callout, Card, FileInput, FormGroup, H2, H4, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { ArrowLeftIcon, BanCircleIcon, DownloadIcon, ErrorIcon, UploadIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import {
  labMayCancel,
  labNextSteps,
  STATUS,
  useCancelByLab,
  useChangeStatus,
  useLabApplication,
  useLabApplicationByNumber,
  useOutboundTracking,
  useResults,
  useUploadReport,
  downloadReport,
  CALIBRATION_LIMITS,
  type LabApplication,
} from '@/lib/api/calibrationLab';
import { ApiError } from '@/lib/http';
import { formatCents } from '@/lib/money';
import { notify } from '@/lib/notify';
import { saveFile } from '@/lib/saveFile';
import { formatInstant, NO_VALUE } from '@/lib/units';
import { DeviceCertificate } from './components/DeviceCertificate';
import { LabOnly } from './components/LabOnly';
import { StatusLadder, StatusTag } from './components/Status';
import './calibrationlab.css';

const idOf = (raw: string | undefined) => (raw && /^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) < 2 ** 31 ? Number(raw) : null);

/** One application for the lab: details, devices, its status ladder, tracking, report and each device's certificate. */
export default function OrderDetailPage() {
  return <LabOnly><Detail /></LabOnly>;
}

/** The application's number (CAL, its date, 8 characters), as the order's QR code gives it. */
const numberOf = (raw: string | undefined) => (raw && /^CAL\w{8,30}$/i.test(raw) ? raw.toUpperCase() : null);

function Detail() {
  const { role = 'admin', applicationId } = useParams();
  const number = numberOf(applicationId);
  // Scanned from an order's QR code at receipt: the number is looked up once, then the id's address.
  const byNumber = useLabApplicationByNumber(number);
  if (number === null) return <ById role={role} id={idOf(applicationId)} />;
  if (byNumber.data?.applicationId) return <Navigate replace to={`/${role}/order/detail/${byNumber.data.applicationId}`} />;
  return <ById role={role} id={byNumber.isError ? null : undefined} />;
}

/** `id` undefined: still looking the number up. */
function ById({ role, id }: { role: string; id: number | null | undefined }) {
  const { t } = useTranslation(['calibrationlab', 'common']);
  const query = useLabApplication(id ?? null);
  const results = useResults(id ?? null);
  const application = query.data;
  if (id === undefined) return <Spinner className="jc-cl-spinner" />;

  if (id === null || query.isError) {
    return <NonIdealState icon={<ErrorIcon />} title={t('detail.notFound')}
      action={<Link to={`/${role}/order/list`}>{t('detail.back')}</Link>} />;
  }
  if (!application) return <Spinner className="jc-cl-spinner" />;
  const certificates = results.data ?? [];

  return (
    <div className="jc-cl" data-testid="order-detail" data-status={application.status}>
      <Link to={`/${role}/order/list`} className="jc-cl-back"><ArrowLeftIcon /> {t('detail.back')}</Link>
      <header className="jc-cl-head">
        <H2 className="jc-cl-number" data-testid="order-number">{application.applicationNumber}</H2>
        <StatusTag status={application.status} />
      </header>
      <Summary application={application} />
      <StatusCard application={application} />
      <ShippingCard application={application} />
      <section className="jc-cl-section">
        <H4>{t('detail.devices', { count: application.devices.length })}</H4>
        {application.devices.map((line) => (
          <DeviceCertificate key={line.index} application={application} line={line}
            versions={certificates.filter((c) => c.lineIndex === line.index).sort((a, b) => a.version - b.version)} />
        ))}
      </section>
    </div>
  );
}

function Summary({ application }: { application: LabApplication }) {
  const { t, i18n } = useTranslation('calibrationlab');
  const d = application.details;
  const rows: [string, string][] = [
    [t('field.customer'), d?.customerName ?? NO_VALUE],
    [t('field.contact'), [d?.contactName, d?.contactPhone, d?.contactEmail].filter(Boolean).join(' · ') || NO_VALUE],
    [t('field.returnAddress'), d?.returnAddress ?? NO_VALUE],
    [t('field.total'), formatCents(application.totalFee, application.currency, i18n.language)],
    [t('field.paid'), application.paidAt ? `${formatCents(application.paidFee, application.currency, i18n.language)} · ${formatInstant(application.paidAt, i18n.language, false)}` : NO_VALUE],
    [t('field.created'), formatInstant(application.createdAt, i18n.language, false)],
    [t('field.kind'), application.quickOrder ? t('kind.quick') : t('kind.online')],
    [t('field.remark'), d?.remark ?? NO_VALUE],
  ];
  return (
    <Card className="jc-cl-card" elevation={0}>
      <dl className="jc-cl-facts">
        {rows.map(([label, value]) => (
          <div key={label}><dt>{label}</dt><dd>{value}</dd></div>
        ))}
      </dl>
    </Card>
  );
}

/** The ladder and the lab's next steps; cancelling asks first (it pays back what was paid and not received). */
function StatusCard({ application }: { application: LabApplication }) {
  const { t } = useTranslation(['calibrationlab', 'common']);
  const change = useChangeStatus();
  const cancel = useCancelByLab();
  const [confirming, setConfirming] = useState(false);
  const id = application.applicationId ?? 0;
  const next = labNextSteps(application.status, application.quickOrder);
  return (
    <Card className="jc-cl-card" elevation={0}>
      <H4>{t('detail.status')}</H4>
      <StatusLadder status={application.status} />
      <div className="jc-cl-actions jc-cl-actions--start">
        {next.map((status) => (
          <Button key={status} intent="primary" text={t(`step.${status}`)} loading={change.isPending}
            data-testid={`status-to-${status}`}
            onClick={() => change.mutate({ applicationId: id, status }, {
              onSuccess: () => notify.success(t('detail.moved', { status: t(`status.${status}`) })),
            })} />
        ))}
        {labMayCancel(application.status) && (
          <Button intent="danger" variant="outlined" icon={<BanCircleIcon />} text={t('detail.cancel')}
            onClick={() => setConfirming(true)} data-testid="status-cancel" />
        )}
      </div>
      <Alert isOpen={confirming} intent="danger" icon={<BanCircleIcon />} confirmButtonText={t('detail.cancelConfirm')}
        cancelButtonText={t('common:cancel')} loading={cancel.isPending} className="jc-alert"
        onCancel={() => setConfirming(false)}
        onConfirm={() => cancel.mutate(id, {
          onSuccess: () => notify.success(t('detail.cancelled')),
          onSettled: () => setConfirming(false),
        })}>
        <p>{t('detail.cancelQuestion', { number: application.applicationNumber })}</p>
        {application.paidFee > 0 && application.status < STATUS.received && <p>{t('detail.cancelRefund')}</p>}
      </Alert>
    </Card>
  );
}

/** The tracking numbers and the report PDF. */
function ShippingCard({ application }: { application: LabApplication }) {
  const { t } = useTranslation(['calibrationlab', 'common']);
  const tracking = useOutboundTracking();
  const upload = useUploadReport();
  const [number, setNumber] = useState(application.outboundTracking ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const id = application.applicationId ?? 0;
  const mayShip = application.status >= STATUS.inCalibration && application.status <= STATUS.returned;

  const saveTracking = () => {
    const clean = number.trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9-]{3,39}$/.test(clean)) {
      setProblem(t('error.tracking', { max: CALIBRATION_LIMITS.tracking }));
      return;
    }
    tracking.mutate({ applicationId: id, trackingNumber: clean }, {
      onSuccess: () => notify.success(t('detail.trackingSaved')),
      onError: (error) => setProblem(error instanceof ApiError
        ? Object.values(error.errors ?? {}).flat().join(' ') || error.message : t('common:http.errorMessage')),
    });
  };
  const download = async () => {
    const { blob, fileName } = await downloadReport(id);
    saveFile(blob, fileName ?? `${application.applicationNumber}-report.pdf`);
  };

  return (
    <Card className="jc-cl-card" elevation={0}>
      <H4>{t('detail.shipping')}</H4>
      <dl className="jc-cl-facts">
        <div><dt>{t('field.inbound')}</dt><dd data-testid="inbound-tracking">{application.inboundTracking ?? NO_VALUE}</dd></div>
      </dl>
      {mayShip ? (
        <FormGroup label={t('field.outbound')} labelFor="cl-outbound" intent={problem ? 'danger' : 'none'}
          helperText={problem ?? t('detail.trackingHint')}>
          <div className="jc-cl-row">
            <InputGroup id="cl-outbound" value={number} maxLength={CALIBRATION_LIMITS.tracking} data-testid="outbound-tracking"
              intent={problem ? 'danger' : 'none'} onChange={(event) => { setNumber(event.currentTarget.value); setProblem(null); }} />
            <Button text={t('common:save')} loading={tracking.isPending} onClick={saveTracking} data-testid="outbound-save" />
          </div>
        </FormGroup>
      ) : (
        <dl className="jc-cl-facts"><div><dt>{t('field.outbound')}</dt><dd>{application.outboundTracking ?? NO_VALUE}</dd></div></dl>
      )}
      <FormGroup label={t('detail.report')} labelFor="cl-report" helperText={t('detail.reportHint')}>
        <div className="jc-cl-row">
          <FileInput fill inputProps={{ id: 'cl-report', accept: 'application/pdf,.pdf' }} text={file?.name ?? t('import.choose')}
            buttonText={t('import.browse')} hasSelection={file !== null}
            onInputChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)} />
          <Button icon={<UploadIcon />} text={t('detail.upload')} disabled={!file} loading={upload.isPending} data-testid="report-upload"
            onClick={() => file && upload.mutate({ applicationId: id, file }, {
              onSuccess: () => { setFile(null); notify.success(t('detail.reportUploaded')); },
            })} />
          <Button icon={<DownloadIcon />} variant="minimal" text={t('detail.download')} onClick={() => void download().catch(() => undefined)}
            data-testid="report-download" />
        </div>
      </FormGroup>
      {application.status > STATUS.returned && <Callout intent="warning">{t(`status.${application.status}`)}</Callout>}
    </Card>
  );
}
