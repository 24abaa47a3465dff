/**
 * SMS and voice alert packages (api-contract section 5): GET /payment/PaySmsPackages/selectSmsPackage
 * (the packages of one country code, as {smsList, voiceList}) and the country codes offered
 * (GET /base/BaseDict/queryByType?dataType=COUNTRY_CODE). Orders: api/orders.ts.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';

export const COUNTRY_CODE_DICT = 'COUNTRY_CODE';

export const alertPackageSchema = z.object({
  packageId: z.number(),
  packageName: z.string(),
  /** Cents, listed: what an order's smsFee / voiceFee repeats. */
  packageFee: z.number(),
  /** Messages (or calls, for a voice package) it adds to each device. */
  smsCount: z.number(),
  discount: z.number(),
  activityDiscount: z.number().nullable(),
  /** Cents one device pays, after the effective discount (the server's figure). */
  price: z.number(),
  /** ISO 4217 of the fee and the price. */
  currency: z.string(),
  /** The discount charged, as shown ('8折', '20% OFF'); null without one. */
  discountBadge: z.string().nullable(),
});
export type AlertPackage = z.infer<typeof alertPackageSchema>;

export const alertPackagesSchema = z.object({
  smsList: z.array(alertPackageSchema),
  voiceList: z.array(alertPackageSchema),
});
export type AlertPackages = z.infer<typeof alertPackagesSchema>;

export const countryCodeSchema = z.object({
  /** The calling code without '+', e.g. '1', '86'. */
  dataCode: z.string(),
  dataValue: z.string(),
  /** In the request's language. */
  label: z.string(),
});
export type CountryCode = z.infer<typeof countryCodeSchema>;

export async function fetchAlertPackages(countryCode: string): Promise<AlertPackages> {
  return alertPackagesSchema.parse(await api.get('/payment/PaySmsPackages/selectSmsPackage', { params: { countryCode } }));
}

export async function fetchCountryCodes(): Promise<CountryCode[]> {
  return z.array(countryCodeSchema).parse(await api.get('/base/BaseDict/queryByType', { params: { dataType: COUNTRY_CODE_DICT } }));
}

export const alertKeys = {
  packages: (countryCode: string) => ['payment', 'smsPackages', countryCode] as const,
  countryCodes: (language: string) => ['dict', COUNTRY_CODE_DICT, language] as const,
};

/** The packages of `countryCode`, asked while `enabled`. */
export function useAlertPackages(countryCode: string, enabled = true) {
  return useQuery({
    queryKey: alertKeys.packages(countryCode),
    queryFn: () => fetchAlertPackages(countryCode),
    enabled: enabled && /^\d{1,4}$/.test(countryCode),
  });
}

/** The country codes with labels in the user's language, asked while `enabled`. */
export function useCountryCodes(enabled = true) {
  return useQuery({
    queryKey: alertKeys.countryCodes(currentLanguage()),
    queryFn: fetchCountryCodes,
    enabled,
    staleTime: Infinity,
  });
}
