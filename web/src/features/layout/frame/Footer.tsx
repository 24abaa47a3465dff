import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cachedCustomPage } from '@/lib/api/customPage';
import { useSession } from '@/lib/session';

export const VERSION_PATH = '/version/manage';

interface FilingProps {
  /** What is shown. */
  text: string;
  /** Where it leads, if anywhere. */
  href: string | null | undefined;
}

/** An outside link when the platform gave one, else plain text. */
function Filing({ text, href }: FilingProps) {
  if (!href) return <span>{text}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {text}
    </a>
  );
}

/** Copyright, the platform's filing information and the version link (spec seed 000 section 2). */
export function Footer() {
  const { t } = useTranslation(['layout', 'app']);
  const { info } = useSession();
  const page = cachedCustomPage();
  const company = page?.companyName || page?.title || t('app:appName');
  const filings = [
    page?.recordCompany && page.recordCompany !== company ? <span key="company">{page.recordCompany}</span> : null,
    page?.recordNumber ? <Filing key="record" text={page.recordNumber} href={page.recordConnection} /> : null,
    page?.policeFiling ? <Filing key="police" text={page.policeFiling} href={page.policeConnection} /> : null,
  ].filter((item) => item !== null);
  return (
    <footer className="jc-footer" data-testid="footer">
      <span>{t('footer.copyright', { year: new Date().getFullYear(), company })}</span>
      {filings.length > 0 && (
        <span className="jc-footer-filing" aria-label={t('footer.filing')}>
          {filings}
        </span>
      )}
      {info?.elitechVersion && (
        <Link to={VERSION_PATH} className="jc-footer-version" data-testid="version-link">
          {t('footer.version', { version: info.elitechVersion })}
        </Link>
      )}
    </footer>
  );
}
