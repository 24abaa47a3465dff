/** Hands a file to the browser to save under `fileName` (an export, a template, a CSV written here). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked later, not at once: some browsers read the blob after click() has returned.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
