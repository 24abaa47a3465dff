/** Checks a trip report's verification code (/mobileQuick/query): valid codes show the trip. */
import { Button, Callout, Card, FormGroup, H2, InputGroup, Spinner } from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { verifyCode } from './api/quickQuery';
import { LookupFailed } from './components/Problem';
import { TripView } from './components/TripView';
import './quickQuery.css';

const CODE_MAX = 40;

export default function VerifyPage() {
  const { t } = useTranslation('quickquery');
  const [code, setCode] = useState('');
  const check = useMutation({ mutationFn: verifyCode });
  const typed = code.trim();
  return (
    <div className="jc-qq jc-qq-mobile" data-testid="quick-verify-page">
      <header className="jc-qq-head">
        <H2>{t('verify.title')}</H2>
        <p className="jc-qq-muted">{t('verify.subtitle')}</p>
      </header>
      <Card className="jc-qq-card" elevation={0}>
        <form className="jc-qq-search" onSubmit={(e) => { e.preventDefault(); if (typed) check.mutate(typed); }}>
          <FormGroup label={t('verify.code')} labelFor="verify-code" className="jc-qq-value">
            <InputGroup id="verify-code" value={code} onValueChange={setCode} maxLength={CODE_MAX} autoComplete="off"
              data-testid="verify-code" />
          </FormGroup>
          <Button type="submit" intent="primary" text={t('verify.check')} disabled={!typed} className="jc-qq-go"
            data-testid="verify-go" />
        </form>
      </Card>
      {check.isPending ? <Spinner /> : check.isError ? <LookupFailed error={check.error} /> : check.data && (
        check.data.valid && check.data.trip ? (
          <>
            <Callout intent="success" data-testid="verify-valid">{t('verify.valid')}</Callout>
            <TripView trip={check.data.trip} narrow />
          </>
        ) : <Callout intent="warning" data-testid="verify-invalid">{t('verify.invalid')}</Callout>
      )}
    </div>
  );
}
