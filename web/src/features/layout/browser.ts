/** What the layout asks of the browser window, in one object that tests can replace. */
export const browser = {
  /** A full page load of a path (a scene switch starts the console afresh). */
  assign(url: string): void {
    window.location.assign(url);
  },
  reload(): void {
    window.location.reload();
  },
  /** Opens a new window without giving it a handle on this one; false when the browser blocked it. */
  openWindow(url: string): boolean {
    const opened = window.open(url, '_blank');
    if (!opened) return false;
    opened.opener = null;
    return true;
  },
  fullscreenSupported(): boolean {
    return document.fullscreenEnabled === true;
  },
  isFullscreen(): boolean {
    return document.fullscreenElement != null;
  },
  async toggleFullscreen(): Promise<void> {
    if (document.fullscreenElement) await document.exitFullscreen();
    else await document.documentElement.requestFullscreen();
  },
};
