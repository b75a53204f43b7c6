import { useEffect } from 'react';

/** How long the app's page may take to show the control pressed on the drawn one. */
const WAIT_MS = 10_000;

/** The first shown control of that name (a phone's menu and the desktop's have the same names). */
function controlNamed(label: string): HTMLButtonElement | undefined {
  return Array.from(document.querySelectorAll<HTMLButtonElement>('#root button[type=button]')).find(
    (b) => (b.getAttribute('aria-label') ?? b.textContent) === label && b.checkVisibility?.() !== false,
  );
}

/**
 * The gateway's drawn page (the home page's top, a deep link's page) shows the app's controls
 * before the app's scripts run, and a press on one then does nothing by itself. index.html's head
 * script notes the last control pressed (`data-tap` on `<html>`: its `aria-label`, else its text);
 * once the app shows a control of that name, this presses it, so a visitor who chose 字号大 or 暂停
 * at once gets it a moment later instead of never. The app's first commit may hold the page's
 * frame before the page itself (a lazy page resolving), hence the wait for the control.
 */
export function replayDrawnTap(): () => void {
  const root = document.documentElement;
  const label = root.getAttribute('data-tap');
  root.removeAttribute('data-tap');
  if (label === null) return () => undefined;
  const now = controlNamed(label);
  if (now) {
    now.click();
    return () => undefined;
  }
  const watch = new MutationObserver(() => {
    const control = controlNamed(label);
    if (!control) return;
    stop();
    control.click();
  });
  const timer = window.setTimeout(() => stop(), WAIT_MS);
  const stop = () => {
    watch.disconnect();
    window.clearTimeout(timer);
  };
  watch.observe(document.getElementById('root') ?? document.body, { childList: true, subtree: true });
  return stop;
}

/** Rendered beside the routes: its effect runs once the app has replaced the drawn page. */
export function DrawnTap(): null {
  useEffect(() => replayDrawnTap(), []);
  return null;
}
