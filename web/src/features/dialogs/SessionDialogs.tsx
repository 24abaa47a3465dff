/** The dialogs a signed-in session may raise (expired service, notice, identity, idle logout). */
export function SessionDialogs() {
  return null;
}
