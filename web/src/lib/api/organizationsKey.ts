/** The query key under which every organization query lives (features/organizations): a feature
 * that changes memberships (an approved invitation in the message centre) invalidates it. */
export const ORGANIZATIONS_KEY = ['organizations'] as const;
