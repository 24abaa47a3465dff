import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { cachedCustomPage } from '@/features/platform/api/customPage';
import { defaultPath } from '../menu/buildMenu';

export interface ProductMarkProps {
  /** Width and height in pixels. */
  size?: number;
}

/** The product's own mark: a snowflake-like hub in the theme colour. */
export function ProductMark({ size = 32 }: ProductMarkProps) {
  return (
    <svg className="jc-mark" width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="var(--jc-theme)" />
      <path d="M32 10v44M13 21l38 22M51 21 13 43" stroke="var(--jc-theme-fg)" strokeWidth="5" strokeLinecap="round" />
      <circle cx="32" cy="32" r="7" fill="var(--jc-theme-fg)" />
    </svg>
  );
}

export interface BrandProps {
  /** Show the platform title next to the logo. */
  showTitle: boolean;
}

/** The platform's logo (`indexLogo`, else the product mark) and title, linking to the landing page. */
export function Brand({ showTitle }: BrandProps) {
  const { t } = useTranslation(['layout', 'app']);
  const page = cachedCustomPage();
  const title = page?.title || t('app:appName');
  return (
    <Link to={defaultPath(page?.styleModel)} className="jc-brand" aria-label={`${title} – ${t('brand.home')}`} title={title}>
      {page?.indexLogo ? <img className="jc-brand-logo" src={page.indexLogo} alt="" /> : <ProductMark />}
      {showTitle && <span className="jc-brand-title">{title}</span>}
    </Link>
  );
}
