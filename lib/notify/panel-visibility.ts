/** Which conversation each connected side panel shows, and whether its page is visible, as the panels report it. */
export class PanelVisibility {
  private readonly panels = new Map<string, { sessionId: string; visible: boolean }>();

  report(panelId: string, sessionId: string, visible: boolean): void {
    this.panels.set(panelId, { sessionId, visible });
  }

  gone(panelId: string): void {
    this.panels.delete(panelId);
  }

  /** A panel that never reported, or whose page is hidden (another tab, minimized, closed), does not count. */
  isShownVisibly(sessionId: string): boolean {
    for (const panel of this.panels.values()) if (panel.visible && panel.sessionId === sessionId) return true;
    return false;
  }
}
