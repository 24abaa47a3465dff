/** The phone's calibration pages under /mobile/calibration/ (their header is the mobile layout's). */
import { Button, Callout, NonIdealState, Spinner } from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import {
  confirmPayment,
  downloadCertificatePdf,
  downloadOrderPdf,
  isPdf,
  STATUS,
  useApplication,
  useApply,
  usePrices,
} from '@/lib/api/calibration';
import { sortError } from '@/lib/serverErrors';
import { ApplicationPreview } from '../components/ApplicationPreview';
import { ApplicationView } from '../components/ApplicationView';
import { DetailsFields } from '../components/DetailsFields';
import { DeviceLines, type LinesMode } from '../components/DeviceLines';
import { LoginForm } from '../components/LoginForm';
import { PriceTable } from '../components/PriceTable';
import { QuickOrderForm } from '../components/QuickOrderForm';
import { dropDraft, readDraft, saveDraft } from '../draft';
import { applicationSchema, applyBody, draftAsApplication, formResolver, EXAMPLE, type FormValues } from '../form';
import { query, useRefFromAddress } from '../ref';
import '../calibration.css';

const ROOT = '/mobile/calibration';
export const detailPath = (address: string) => `${ROOT}/detail/${encodeURIComponent(address)}`;

function Page({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <div className="jc-cal-mobile" data-testid={testId}>
      <h1>{title}</h1>
      {children}
    </div>
  );
}

export function Home() {
  const { t } = useTranslation('calibration');
  const prices = usePrices();
  return (
    <Page title={t('home.title')} testId="calibration-mobile-home">
      <p>{t('home.intro')}</p>
      <div className="jc-cal-entries">
        <Link to={`${ROOT}/device`} className="bp6-button bp6-intent-primary bp6-large bp6-fill" data-testid="calibration-order-now">
          {t('home.orderNow')}
        </Link>
        <Link to={`${ROOT}/quickly`} className="bp6-button bp6-large bp6-fill">{t('home.quickOrder')}</Link>
        <Link to={`${ROOT}/list`} className="bp6-button bp6-large bp6-fill">{t('home.myOrders')}</Link>
      </div>
      <h2>{t('home.prices')}</h2>
      {prices.isPending ? <Spinner size={30} /> : <PriceTable prices={prices.data ?? []} />}
    </Page>
  );
}

export function Quickly() {
  const { t } = useTranslation('calibration');
  return (
    <Page title={t('quick.title')} testId="calibration-mobile-quickly">
      <p>{t('quick.intro')}</p>
      <QuickOrderForm applyTo={`${ROOT}/device`} />
    </Page>
  );
}

const STEPS = { device: 1, serve: 2, customer: 3, apply: 4 } as const;

/** One step of the phone's application: its part of the draft, checked, kept, then the next step. */
function Step({ step, title, next, back, example, children }: {
  step: keyof typeof STEPS; title: string; next: string; back?: string; example?: string;
  children: (form: ReturnType<typeof useForm<FormValues>>, prices: ReturnType<typeof usePrices>['data']) => ReactNode;
}) {
  const { t } = useTranslation('calibration');
  const navigate = useNavigate();
  const prices = usePrices();
  const list = prices.data ?? [];
  const part = step === 'customer' ? 'details' : 'devices';
  const form = useForm<FormValues>({
    mode: 'onTouched',
    defaultValues: readDraft(),
    resolver: formResolver(t, list, part),
  });
  const submit = form.handleSubmit((values) => {
    saveDraft(values);
    navigate(next);
  });
  // Sent back by the last step: the problems show under their fields at once.
  const recheck = (useLocation().state as { recheck?: boolean } | null)?.recheck === true;
  useEffect(() => {
    if (recheck && !prices.isPending) void form.trigger();
  }, [recheck, prices.isPending, form]);
  if (prices.isPending) return <Spinner size={30} />;
  return (
    <Page title={title} testId={`calibration-mobile-${step}`}>
      <p className="jc-cal-muted">
        {t('mobile.step', { step: STEPS[step], of: 4 })}
        {example && <> · <Link to={example}>{t('mobile.example')}</Link></>}
      </p>
      <form onSubmit={submit} noValidate className="jc-cal-form">
        {children(form, prices.data)}
        <div className="jc-cal-step-buttons">
          {back && <Link to={back} className="bp6-button bp6-large">{t('mobile.back')}</Link>}
          <Button type="submit" intent="primary" size="large" text={t('mobile.next')} data-testid="calibration-next" />
        </div>
      </form>
    </Page>
  );
}

function lines(mode: LinesMode) {
  return function Lines(form: ReturnType<typeof useForm<FormValues>>, prices: ReturnType<typeof usePrices>['data']) {
    return <DeviceLines form={form} prices={prices ?? []} mode={mode} />;
  };
}

export function Device() {
  const { t } = useTranslation('calibration');
  return (
    <Step step="device" title={t('mobile.devicesTitle')} next={`${ROOT}/serve`} back={ROOT} example={`${ROOT}/device/example`}>
      {lines('devices')}
    </Step>
  );
}

export function Serve() {
  const { t } = useTranslation('calibration');
  return <Step step="serve" title={t('mobile.serveTitle')} next={`${ROOT}/customer`} back={`${ROOT}/device`}>{lines('services')}</Step>;
}

export function Customer() {
  const { t } = useTranslation('calibration');
  return (
    <Step step="customer" title={t('mobile.customerTitle')} next={`${ROOT}/apply`} back={`${ROOT}/serve`}
      example={`${ROOT}/customer/example`}>
      {(form) => <DetailsFields form={form} />}
    </Step>
  );
}

function Example({ title, devices }: { title: string; devices: boolean }) {
  const { t } = useTranslation('calibration');
  const prices = usePrices();
  const form = useForm<FormValues>({ defaultValues: EXAMPLE });
  return (
    <Page title={title} testId="calibration-mobile-example">
      <p className="jc-cal-muted">{t('form.exampleNote')}</p>
      {devices ? <DeviceLines form={form} prices={prices.data ?? []} readOnly /> : <DetailsFields form={form} readOnly />}
    </Page>
  );
}

export const DeviceExample = () => <Example title={useTranslation('calibration').t('mobile.devicesTitle')} devices />;
export const CustomerExample = () => <Example title={useTranslation('calibration').t('mobile.customerTitle')} devices={false} />;

/** The last step: the draft shown as the application it will be, with its total; applied, the preview pays. */
export function Apply() {
  const { t } = useTranslation('calibration');
  const navigate = useNavigate();
  const prices = usePrices();
  const apply = useApply();
  const list = prices.data ?? [];
  const [failed, setFailed] = useState<string | null>(null);
  const draft = readDraft();
  const submit = async () => {
    setFailed(null);
    const checked = applicationSchema(t, list).safeParse(draft);
    if (!checked.success) {
      // Back to the step that holds the first problem, where it shows under its field.
      const devices = checked.error.issues.some((issue) => issue.path[0] === 'devices');
      navigate(`${ROOT}/${devices ? 'device' : 'customer'}`, { state: { recheck: true } });
      return;
    }
    try {
      const applied = await apply.mutateAsync(applyBody(draft, list));
      dropDraft();
      navigate(`${ROOT}/preview?${query(applied)}`);
    } catch (error) {
      setFailed(sortError(error, [], {}, t).form);
    }
  };
  if (prices.isPending) return <Spinner size={30} />;
  return (
    <Page title={t('mobile.applyTitle')} testId="calibration-mobile-apply">
      <p className="jc-cal-muted">{t('mobile.step', { step: 4, of: 4 })}</p>
      <ApplicationView application={draftAsApplication(draft, list)} />
      {failed && <Callout intent="danger" data-testid="calibration-form-error">{failed}</Callout>}
      <div className="jc-cal-step-buttons">
        <Link to={`${ROOT}/customer`} className="bp6-button bp6-large">{t('mobile.back')}</Link>
        <Button intent="primary" size="large" text={t('form.submit')} loading={apply.isPending}
          data-testid="calibration-submit" onClick={() => void submit()} />
      </div>
    </Page>
  );
}

export function Preview() {
  const { t } = useTranslation('calibration');
  return (
    <Page title={t('preview.title')} testId="calibration-mobile-preview">
      <ApplicationPreview appRef={useRefFromAddress()} mobile detailTo={detailPath} />
    </Page>
  );
}

/** Where the provider sends the payer back: the provider is asked once whether it is paid (its
 * notification may come later), then the application is read as it now stands. */
export function ApplySuccess() {
  const { t } = useTranslation('calibration');
  const ref = useRefFromAddress();
  const confirmed = useQuery({ queryKey: ['calibration', 'confirm', ref], queryFn: () => confirmPayment(ref ?? {}),
    enabled: ref !== null, retry: false, staleTime: Infinity });
  const found = useApplication(confirmed.isFetching ? null : ref);
  const paid = found.data !== undefined && found.data.status !== STATUS.submitted;
  return (
    <Page title={t('mobile.successTitle')} testId="calibration-mobile-success">
      {found.data ? (
        <>
          {paid ? (
            <Callout intent="success">{t('mobile.success', { number: found.data.applicationNumber })}</Callout>
          ) : (
            <Callout intent="warning" data-testid="calibration-not-paid-yet">{t('mobile.notPaidYet')}</Callout>
          )}
          {paid && <p>{t('preview.paid')}</p>}
          <Link className="bp6-button bp6-intent-primary bp6-fill" to={detailPath(found.data.applicationId
            ? String(found.data.applicationId) : found.data.applicationNumber)}>{t('preview.details')}</Link>
        </>
      ) : found.isPending ? <Spinner size={30} /> : <NonIdealState icon={<SearchIcon />} description={t('preview.notFound')} />}
    </Page>
  );
}

export function ApplyLatter() {
  const { t } = useTranslation('calibration');
  const [params] = useSearchParams();
  const number = params.get('number');
  const found = useApplication(useRefFromAddress());
  const shown = found.data?.applicationNumber ?? number ?? '';
  return (
    <Page title={t('mobile.latterTitle')} testId="calibration-mobile-latter">
      <Callout intent="primary">
        <p>{t('mobile.latter', { number: shown })}</p>
        <p className="jc-cal-big" data-testid="calibration-number">{shown}</p>
        <p>{t('mobile.latterHow')}</p>
      </Callout>
      <Link className="bp6-button bp6-intent-primary bp6-fill" to={`${ROOT}/list?number=${encodeURIComponent(shown)}`}>
        {t('list.title')}
      </Link>
    </Page>
  );
}

/** The order (or a certificate, `certificateId`) as a PDF to read and save; anything not named .pdf is refused. */
export function Pdf() {
  const { t } = useTranslation('calibration');
  const ref = useRefFromAddress();
  const [params] = useSearchParams();
  const certificateId = Number(params.get('certificateId')) || null;
  const file = useQuery({
    queryKey: ['calibration', 'pdf', ref, certificateId],
    queryFn: () => (certificateId ? downloadCertificatePdf(ref ?? {}, certificateId) : downloadOrderPdf(ref ?? {})),
    enabled: ref !== null,
    retry: false,
  });
  const [url, setUrl] = useState<string | null>(null);
  const good = file.data && isPdf(file.data) ? file.data : null;
  useEffect(() => {
    if (!good) return undefined;
    const made = URL.createObjectURL(good.blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [good]);
  return (
    <Page title={t('mobile.pdfTitle')} testId="calibration-mobile-pdf">
      {file.isPending && ref ? <Spinner size={30} />
        : !good ? <Callout intent="danger" data-testid="calibration-file-failed">{t('mobile.fileFailed')}</Callout>
          : url && (
            <>
              <p className="jc-cal-file" data-testid="calibration-pdf-name">{good.fileName}</p>
              <a className="bp6-button bp6-intent-primary bp6-fill" href={url} download={good.fileName ?? 'order.pdf'}
                data-testid="calibration-pdf-save">{t('detail.download')}</a>
              {/* Opened in a tab of its own, never framed: phones' browsers do not draw a PDF in a
                  frame, and the console's policy frames nothing (frame-src 'none'). */}
              <a className="bp6-button bp6-fill" href={url} target="_blank" rel="noopener noreferrer"
                data-testid="calibration-pdf-open">{t('mobile.pdfOpen')}</a>
            </>
          )}
    </Page>
  );
}

export function Login() {
  return (
    <div className="jc-cal-mobile">
      <LoginForm home={`${ROOT}/list`} guest={`${ROOT}/device`} />
    </div>
  );
}

