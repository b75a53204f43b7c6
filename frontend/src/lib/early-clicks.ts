// Presses made before the app runs. A server-rendered page is painted, and its buttons shown, well
// before its script has arrived and hydrated it (on a phone on Slow 4G: seconds). React replays the
// events it sees during hydration, but none from before `hydrateRoot` is called: a press on
// 复制链接, 下一张 or an aid of the 关怀版 panel then did nothing (关怀版 itself is a `<details>`,
// which the browser opens; 正文字号 radios, which the body's CSS follows). The page's inline head script
// (`public/index.html`) notes each press on a `<button type="button">` (a button with no action of
// its own; links and forms work without the app) until the app takes the list; the app presses
// them again once hydrated. Hydration keeps the server's nodes, so each noted button is the one
// the app now drives.

interface EarlyWindow {
  __portalEarly?: Element[] | null;
}

/** The buttons pressed so far; from now on the head script notes none (React's own replay takes over). */
export function takeEarlyClicks(): HTMLElement[] {
  const early = window as unknown as EarlyWindow;
  const pressed = early.__portalEarly ?? [];
  early.__portalEarly = null;
  return pressed.filter((node): node is HTMLElement => node instanceof HTMLElement);
}

/**
 * Whether React has adopted `node`: hydration gives a node its props (`__reactProps$…`, which
 * its event handlers are read from). A page's lazy part sits in a Suspense boundary that hydrates
 * after the root commits, so a button there is not yet the app's when the app is ready.
 */
const adopted = (node: Element) => Object.keys(node).some((key) => key.startsWith('__reactProps$'));

/** How long the presses wait for their buttons to be hydrated (a slow phone's whole hydration). */
export const REPLAY_WITHIN_MS = 10_000;

/**
 * Presses again, in order, each noted button still on the page, each once React has adopted it
 * (and those before it are pressed). A button gone, or not adopted within `REPLAY_WITHIN_MS`, is
 * dropped.
 */
export function replayClicks(pressed: readonly HTMLElement[], within = REPLAY_WITHIN_MS): void {
  const queue = [...pressed];
  const until = Date.now() + within;
  const step = () => {
    while (queue.length > 0 && (!queue[0].isConnected || adopted(queue[0]))) {
      const button = queue.shift()!;
      if (button.isConnected) button.click();
    }
    if (queue.length > 0 && Date.now() < until) setTimeout(step, 30);
  };
  step();
}
