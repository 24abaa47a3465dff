import { Alert, Button, Callout, NonIdealState, Spinner } from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  accessTokenOf, checkCancel, isCancelled, refOf, signedIn, STATUS, useApplication, useCancel, useCertificates,
  useSetTracking, type Application, type CancelCheck,
} from '@/lib/api/calibration';
import { notify } from '@/lib/notify';
import { sortError } from '@/lib/serverErrors';
import { ApplicationView } from '../components/ApplicationView';
import { EditDetails } from '../components/EditDetails';
import { useMoney } from '../components/money';
import { PayPanel } from '../components/PayPanel';
import { StatusLadder } from '../components/StatusLadder';
import { query, useRefFromAddress } from '../ref';
import '../calibration.css';

const TRACKING = /^[A-Za-z0-9][A-Za-z0-9-]{3,39}$/;

/** /mobile/calibration/detail/:applicationId (an id, or a number): the ladder, tracking, certificates, cancel and pay. */
export default function DetailPage() {
  const { t } = useTranslation('calibration');
  const ref = useRefFromAddress();
  const found = useApplication(ref);
  if (found.isPending && ref) return <Spinner size={30} />;
  if (!found.data) return <NonIdealState icon={<SearchIcon />} description={t('preview.notFound')} />;
  const a = found.data;
  // Acting needs the account it was made by (who reads its id) or the token: else the server
  // refuses, and a 403 (token required) would end the session.
  const mayAct = (signedIn() && a.applicationId !== null) || accessTokenOf(a.applicationNumber) !== null;
  return (
    <div className="jc-cal-mobile" data-testid="calibration-detail">
      <h1>{a.applicationNumber}</h1>
      <StatusLadder status={a.status} />
      {mayAct && <PayPanel application={a} mobile laterTo={`/mobile/calibration/apply/latter?${query(a)}`} />}
      {mayAct && (a.status === STATUS.paid || a.status === STATUS.awaitingDevices) && <Tracking application={a} />}
      <ApplicationView application={a} />
      {mayAct && a.status <= STATUS.awaitingDevices && <EditDetails application={a} />}
      <Certificates application={a} />
      <div className="jc-cal-actions">
        <Link to={`/mobile/calibration/pdf?${query(a)}`} className="bp6-button" data-testid="calibration-download-print">
          {t('detail.downloadPrint')}
        </Link>
        {mayAct && a.status <= STATUS.awaitingDevices && <Cancel application={a} />}
      </div>
    </div>
  );
}

function Tracking({ application }: { application: Application }) {
  const { t } = useTranslation('calibration');
  const [number, setNumber] = useState(application.inboundTracking ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = useSetTracking();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!TRACKING.test(number.trim())) return setError(t('error.tracking'));
    setError(null);
    try {
      await save.mutateAsync({ ref: refOf(application), number: number.trim() });
      notify.success(t('detail.trackingSaved'));
    } catch (failure) {
      setError(sortError(failure, ['trackingNumber'], {}, t).fields.trackingNumber ?? sortError(failure, [], {}, t).form);
    }
  };
  return (
    <form className="jc-cal-section jc-cal-tracking" onSubmit={submit} noValidate data-testid="calibration-tracking">
      <p>{t('detail.tracking')}</p>
      <label className="bp6-label" htmlFor="calibration-tracking">{t('field.tracking')}</label>
      <div className="jc-cal-search">
        <input id="calibration-tracking" className="bp6-input" value={number} onChange={(e) => setNumber(e.target.value)} />
        <Button type="submit" intent="primary" text={t('detail.saveTracking')} loading={save.isPending} />
      </div>
      {error && <div className="bp6-form-helper-text jc-cal-error" role="alert">{error}</div>}
    </form>
  );
}

function Certificates({ application }: { application: Application }) {
  const { t } = useTranslation('calibration');
  const found = useCertificates(refOf(application));
  const issued = (found.data ?? []).filter((c) => c.status !== 1);
  return (
    <section className="jc-cal-section" data-testid="calibration-certificates">
      <h3>{t('detail.certificates')}</h3>
      {issued.length === 0 ? <p className="jc-cal-muted">{t('detail.noCertificates')}</p> : (
        <ul className="jc-cal-list">
          {issued.map((c) => (
            <li key={c.certificateId}>
              <span>#{c.lineIndex} · {c.reference ?? c.number} · {t('detail.version', { version: c.version })}
                {c.supersededAt ? ` · ${t('detail.superseded')}` : ''}</span>
              <Link to={`/mobile/calibration/pdf?${query(application)}&certificateId=${c.certificateId}`}
                data-testid="calibration-certificate-download">{t('detail.download')}</Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** cancel/check first: what would be paid back, or why it can no longer be cancelled. */
function Cancel({ application }: { application: Application }) {
  const { t } = useTranslation('calibration');
  const money = useMoney();
  const [check, setCheck] = useState<CancelCheck | null>(null);
  const ask = useMutation({ mutationFn: () => checkCancel(refOf(application)), onSuccess: setCheck });
  const cancel = useCancel();
  if (isCancelled(application.status)) return null;
  return (
    <>
      <Button intent="danger" variant="outlined" text={t('detail.cancel')} loading={ask.isPending}
        data-testid="calibration-cancel" onClick={() => ask.mutate()} />
      {check && !check.possible && <Callout intent="warning">{t('detail.cancelNot')}</Callout>}
      <Alert isOpen={Boolean(check?.possible)} intent="danger" cancelButtonText={t('detail.keep')}
        confirmButtonText={t('detail.cancel')} loading={cancel.isPending}
        onCancel={() => setCheck(null)}
        onConfirm={() => cancel.mutate(refOf(application), {
          // a refusal (the lab took the devices meanwhile) is the client's error notice; the dialog closes either way
          onSettled: () => setCheck(null),
          onSuccess: () => notify.success(t('detail.cancelled')),
        })}>
        {t('detail.cancelConfirm', { number: application.applicationNumber,
          refund: money(check?.refundFee ?? 0, application.currency) })}
      </Alert>
    </>
  );
}
