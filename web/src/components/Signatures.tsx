import { Icon, Tag, Tooltip } from '@blueprintjs/core';
import { EndorsedIcon, WarningSignIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import type { SignatureRow } from '@/lib/api/fda';
import { inZone } from '@/lib/units';
import './signatures.css';

/** Whether a signature still applies to its record: the record has not changed since it was signed. */
export function ValidityTag({ valid }: { valid: boolean }) {
  const { t } = useTranslation('components');
  const tag = (
    <Tag minimal round intent={valid ? 'success' : 'danger'} data-testid="signature-validity" data-valid={valid}>
      {t(valid ? 'signature.valid' : 'signature.invalid')}
    </Tag>
  );
  return valid ? tag : <Tooltip content={t('signature.invalidHint')} placement="top">{tag}</Tooltip>;
}

/** When a signature was made, in the signer's zone: the date and time with the offset, then the zone's name. */
export function SignedAt({ signature }: { signature: Pick<SignatureRow, 'signedAt' | 'timeZone' | 'localTime'> }) {
  const { i18n } = useTranslation();
  const [when, zone] = inZone(signature.signedAt, signature.timeZone, i18n.language, signature.localTime);
  return (
    <time dateTime={signature.localTime} className="jc-sig-when">
      <span className="jc-sig-nowrap">{when}</span> <span className="jc-sig-nowrap jc-sig-zone">({zone})</span>
    </time>
  );
}

/**
 * A signature's manifestation (21 CFR 11.50): the printed name, the date and time in the signer's
 * zone, the meaning, the reason, and whether it still applies to the record.
 */
export function Manifestation({ signature }: { signature: SignatureRow }) {
  const { t } = useTranslation('components');
  return (
    <div className={`jc-sig${signature.valid ? '' : ' is-invalid'}`} data-testid="signature" data-signature-id={signature.id}>
      <div className="jc-sig-head">
        <Icon icon={signature.valid ? <EndorsedIcon /> : <WarningSignIcon />} size={14}
          intent={signature.valid ? 'success' : 'danger'} className="jc-sig-icon" />
        <span className="jc-sig-meaning" data-testid="signature-meaning">{signature.meaningText}</span>
        <span className="jc-sig-name" data-testid="signature-name">
          {signature.signerName}
          {signature.signerName !== signature.signerLogin && <span className="jc-sig-login"> ({signature.signerLogin})</span>}
        </span>
        <ValidityTag valid={signature.valid} />
      </div>
      <div className="jc-sig-time" data-testid="signature-time"><SignedAt signature={signature} /></div>
      {signature.endorsementName && (
        <div className="jc-sig-line">{t('signature.endorsement', { name: signature.endorsementName })}</div>
      )}
      {signature.reason && (
        <div className="jc-sig-line jc-sig-reason" data-testid="signature-reason">{t('signature.reasonIs', { reason: signature.reason })}</div>
      )}
    </div>
  );
}

/** A record's signatures, oldest first; nothing when it has none. */
export function SignatureList({ signatures }: { signatures: readonly SignatureRow[] }) {
  const { t } = useTranslation('components');
  if (signatures.length === 0) return null;
  return (
    <div className="jc-sig-list" data-testid="signature-list" aria-label={t('signature.list')}>
      {signatures.map((signature) => <Manifestation key={signature.id} signature={signature} />)}
    </div>
  );
}
