import { H2, Icon } from '@blueprintjs/core';
import { NotificationsIcon, SnowflakeIcon, TemperatureIcon, TruckIcon } from '@blueprintjs/icons';
import type { JSX, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cachedCustomPage, type CustomPage } from '@/features/platform/api/customPage';
import { LanguageSwitcher } from './LanguageSwitcher';
import '../auth.css';

/** Props of the frame every sign-in page is drawn in. */
export interface AuthShellProps {
  /** The page's heading; a page that draws its own leaves it out. */
  title?: string;
  /** One line under the heading. */
  subtitle?: string;
  /** The form or message. */
  children: ReactNode;
}

const FEATURES: readonly { icon: JSX.Element; key: string }[] = [
  { icon: <TemperatureIcon />, key: 'brand.featureMonitor' },
  { icon: <NotificationsIcon />, key: 'brand.featureAlarm' },
  { icon: <TruckIcon />, key: 'brand.featureWaybill' },
];

/** The platform's login logo, or the product's mark. */
function Logo({ page, name }: { page: CustomPage | null; name: string }) {
  if (page?.loginLogo) return <img className="jc-auth-logo-image" src={page.loginLogo} alt={name} />;
  return (
    <span className="jc-auth-mark" aria-hidden="true">
      <Icon icon={<SnowflakeIcon />} size={20} />
    </span>
  );
}

/** A temperature trace inside its limits: the drawing behind the default brand panel. */
function Trace() {
  return (
    <svg className="jc-auth-trace" viewBox="0 0 600 220" preserveAspectRatio="none" aria-hidden="true">
      <rect x="0" y="60" width="600" height="100" className="jc-auth-trace-band" />
      <line x1="0" y1="60" x2="600" y2="60" className="jc-auth-trace-limit" />
      <line x1="0" y1="160" x2="600" y2="160" className="jc-auth-trace-limit" />
      <path
        className="jc-auth-trace-line"
        d="M0 120 C40 100 70 96 100 110 S160 140 200 128 S260 84 300 96 S370 150 410 136 S470 88 510 100 S570 130 600 118"
      />
    </svg>
  );
}

/** The left half on wide screens: the platform's background, or the product's own panel. */
function BrandPanel({ page, name }: { page: CustomPage | null; name: string }) {
  const { t } = useTranslation('auth');
  const background = page?.backGroundLogo;
  return (
    <aside
      className={background ? 'jc-auth-brand jc-auth-brand-image' : 'jc-auth-brand'}
      style={background ? { backgroundImage: `url("${background.replace(/"/g, '%22')}")` } : undefined}
    >
      <div className="jc-auth-brand-name">
        <Logo page={page} name={name} />
        <span>{name}</span>
      </div>
      {!background && (
        <div className="jc-auth-brand-body">
          <p className="jc-auth-tagline">{t('brand.tagline')}</p>
          <ul className="jc-auth-features">
            {FEATURES.map(({ icon, key }) => (
              <li key={key}>
                <Icon icon={icon} size={18} />
                <span>{t(key)}</span>
              </li>
            ))}
          </ul>
          <Trace />
        </div>
      )}
    </aside>
  );
}

/** The platform's company and filing numbers, when it has them. */
function Filing({ page }: { page: CustomPage | null }) {
  if (!page?.companyName && !page?.recordNumber && !page?.policeFiling) return null;
  const link = (text: string, href: string | null | undefined) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {text}
      </a>
    ) : (
      <span>{text}</span>
    );
  return (
    <footer className="jc-auth-footer">
      {page.companyName && <span>© {new Date().getFullYear()} {page.companyName}</span>}
      {page.recordNumber && link(page.recordNumber, page.recordConnection)}
      {page.policeFiling && link(page.policeFiling, page.policeConnection)}
    </footer>
  );
}

/** The frame of the sign-in pages: brand panel, language menu, heading and content. */
export function AuthShell({ title, subtitle, children }: AuthShellProps) {
  const { t } = useTranslation('auth');
  const page = cachedCustomPage();
  const name = page?.title || t('app:appName');
  return (
    <div className="jc-auth">
      <BrandPanel page={page} name={name} />
      <section className="jc-auth-main">
        <div className="jc-auth-top">
          <div className="jc-auth-compact-brand">
            <Logo page={page} name={name} />
            <span>{name}</span>
          </div>
          <LanguageSwitcher />
        </div>
        <div className="jc-auth-content">
          <div className="jc-auth-panel">
            {title && (
              <header className="jc-auth-heading">
                <H2>{title}</H2>
                {subtitle && <p>{subtitle}</p>}
              </header>
            )}
            {children}
          </div>
        </div>
        <Filing page={page} />
      </section>
    </div>
  );
}
