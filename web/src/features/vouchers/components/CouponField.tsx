/**
 * The coupon field of the paying drawer (issue 18): the customer types a code and applies it; the
 * server says what it takes off the order's total (activity/PayCoupon/checkCoupon) or why it cannot
 * be used (not found, not valid now, used, held by another order, worth the whole order). One
 * coupon per order; when the total changes the coupon is priced again. The order placed then carries
 * the code and its discount, and charges what is shown.
 */
import { Button, FormGroup, InputGroup, Tag } from '@blueprintjs/core';
import { TagIcon } from '@blueprintjs/icons';
import { useEffect, useEffectEvent, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, CancelledError } from '@/lib/http/index';
import { voucherMoney } from '../money';
import type { AppliedCoupon, CouponFieldProps } from '@/lib/slots';
import { checkCoupon } from '../api/vouchers';
import '../vouchers.css';

const CODE_MAX = 40;

export function CouponField({ totalFee, value, onChange }: CouponFieldProps) {
  const { t, i18n } = useTranslation('vouchers');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  const price = async (text: string, total: number) => {
    setChecking(true);
    setError(null);
    try {
      onChange(await checkCoupon(text, total));
    } catch (failure) {
      if (failure instanceof CancelledError) return;
      onChange(null);
      setError(failure instanceof ApiError ? failure.message : t('coupon.failed'));
    } finally {
      setChecking(false);
    }
  };
  const again = useEffectEvent((quote: AppliedCoupon, total: number) => void price(quote.couponCode, total));

  // The total changed (another duration, a batch quote): the coupon is priced again on it.
  useEffect(() => {
    if (value && totalFee !== null && value.totalFee !== totalFee) again(value, totalFee);
  }, [value, totalFee]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const text = code.trim();
    if (!text) {
      setError(t('coupon.required'));
      return;
    }
    if (totalFee !== null) void price(text, totalFee);
  };

  if (value) {
    return (
      <div className="jc-coupon-applied" data-testid="coupon-applied">
        <Tag large minimal intent="success" icon={<TagIcon />}>
          <span className="jc-mono">{value.couponCode}</span>
        </Tag>
        <span data-testid="coupon-discount">
          {t('coupon.discount', { amount: voucherMoney(value.couponFee, value.currency, i18n.language) })}
        </span>
        <Button variant="minimal" size="small" text={t('coupon.remove')} data-testid="coupon-remove"
          onClick={() => { onChange(null); setCode(''); }} />
      </div>
    );
  }
  return (
    <form onSubmit={apply} className="jc-coupon-form" data-testid="coupon-form" noValidate>
      <FormGroup label={t('coupon.label')} labelFor="jc-coupon-code" helperText={error ?? undefined}
        intent={error ? 'danger' : 'none'} className="jc-coupon-group">
        <InputGroup id="jc-coupon-code" value={code} maxLength={CODE_MAX} autoComplete="off" spellCheck={false}
          placeholder={t('coupon.placeholder')} intent={error ? 'danger' : 'none'} data-testid="coupon-code"
          onChange={(event) => { setCode(event.target.value); setError(null); }}
          rightElement={<Button type="submit" variant="minimal" text={t('coupon.apply')} loading={checking}
            disabled={totalFee === null} data-testid="coupon-apply" />} />
      </FormGroup>
    </form>
  );
}
