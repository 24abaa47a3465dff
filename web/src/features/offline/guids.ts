/**
 * The GUIDs an operator types or pastes: one a line, or separated by commas, semicolons or spaces
 * (a column copied from a sheet, a list from an e-mail). Kept as typed, in order, repeats too: the
 * server's check numbers the rows and says which one is listed twice.
 */
export function splitGuids(text: string): string[] {
  return text.split(/[\s,;，；、]+/).filter((guid) => guid.length > 0);
}
