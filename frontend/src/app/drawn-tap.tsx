import { useEffect } from 'react';

/** How long the app's page may take to show the control pressed on the drawn one. */
const WAIT_MS = 10_000;

const shown = (e: Element) => e.checkVisibility?.() !== false;

/** The first shown control of that name (a phone's menu and the desktop's have the same names). */
function controlNamed(label: string): HTMLButtonElement | undefined {
  return Array.from(document.querySelectorAll<HTMLButtonElement>('#root button[type=button]')).find(
    (b) => (b.getAttribute('aria-label') ?? b.textContent) === label && shown(b),
  );
}

/** The first shown search box of the app (the header's, or the phone menu's when it is open). */
function searchBox(): HTMLInputElement | undefined {
  return Array.from(document.querySelectorAll<HTMLInputElement>('#root form[role=search] input[name=q]')).find(shown);
}

/**
 * Puts `text` into the app's search box as typing would: through the input's own value setter and
 * an `input` event, which the box's state (a controlled input) follows.
 */
function type(input: HTMLInputElement, text: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** Runs `act` with what `find` finds, now or once the app shows it (up to `WAIT_MS`); returns a stop. */
function once<T>(find: () => T | undefined, act: (found: T) => void): () => void {
  const now = find();
  if (now !== undefined) {
    act(now);
    return () => undefined;
  }
  const watch = new MutationObserver(() => {
    const found = find();
    if (found === undefined) return;
    stop();
    act(found);
  });
  const timer = window.setTimeout(() => stop(), WAIT_MS);
  const stop = () => {
    watch.disconnect();
    window.clearTimeout(timer);
  };
  watch.observe(document.getElementById('root') ?? document.body, { childList: true, subtree: true });
  return stop;
}

/**
 * The gateway's drawn page (the home page's top, a deep link's page) shows the app's controls
 * before the app's scripts run, and what a visitor does there would otherwise be lost when the app
 * replaces it. index.html's head script notes the last control pressed (`data-tap` on `<html>`: its
 * `aria-label`, else its text) and what was typed into a search box (`data-typed`; a search
 * submitted there goes to the results route itself). Once the app shows a control of that name this
 * presses it, and puts the text into the app's search box with the focus, so a visitor who chose
 * 字号大 or 暂停, or began a search, at once gets it a moment later instead of never. The app's first
 * commit may hold the page's frame before the page itself (a lazy page resolving), hence the wait.
 */
export function replayDrawnInput(): () => void {
  const root = document.documentElement;
  const label = root.getAttribute('data-tap');
  const typed = root.getAttribute('data-typed');
  root.removeAttribute('data-tap');
  root.removeAttribute('data-typed');
  const stops = [
    label === null ? () => undefined : once(() => controlNamed(label), (control) => control.click()),
    typed === null
      ? () => undefined
      : once(searchBox, (input) => {
          type(input, typed);
          // The drawn box had the focus, and took it along when it went.
          if (document.activeElement === document.body || document.activeElement === null) input.focus();
        }),
  ];
  return () => stops.forEach((stop) => stop());
}

/** Rendered beside the routes: its effect runs once the app has replaced the drawn page. */
export function DrawnTap(): null {
  useEffect(() => replayDrawnInput(), []);
  return null;
}
