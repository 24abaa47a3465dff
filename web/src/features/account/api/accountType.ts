/**
 * The account type section's calls: GET /base/BaseAccount/contractorAgreement (the agreement's
 * text in the caller's language, and where the caller stands with it), PUT userTypeUpgrade
 * without an id (the caller's own account, personal to enterprise) and POST contractorApply
 * (accepting the agreement of that version). Both changes are silent: the section shows failures.
 */
import { z } from 'zod';
import { api } from '@/lib/http';

/** Account types (src/core/accounts/model.py AccountType). */
export const ACCOUNT_TYPE = { personal: 1, enterprise: 2, engineer: 3, dealer: 4, backOffice: 9 } as const;
/** Where an account stands as a contractor: never applied, applied (not certified), certified. */
export const CONTRACTOR_STATE = { none: 0, applied: 1, certified: 2 } as const;

export const contractorAgreementSchema = z.object({
  version: z.string(),
  title: z.string(),
  clauses: z.array(z.string()),
  contractorState: z.number(),
  acceptedVersion: z.string().nullable(),
  appliedAt: z.string().nullable(),
});
export type ContractorAgreement = z.infer<typeof contractorAgreementSchema>;

/** What the section reads of the changed account (the server answers the whole of it). */
export const changedAccountSchema = z.object({
  accountType: z.number(),
  contractorState: z.number(),
});

export const CONTRACTOR_AGREEMENT_KEY = ['contractorAgreement'];

export async function fetchContractorAgreement(): Promise<ContractorAgreement> {
  return contractorAgreementSchema.parse(await api.get('/base/BaseAccount/contractorAgreement'));
}

/** The caller's own account becomes an enterprise one (no id: the caller). */
export async function upgradeToEnterprise() {
  return changedAccountSchema.parse(await api.put('/base/BaseAccount/userTypeUpgrade', {}, { silent: true }));
}

export async function applyAsContractor(agreementVersion: string) {
  return changedAccountSchema.parse(await api.post('/base/BaseAccount/contractorApply', { agreementVersion }, { silent: true }));
}
