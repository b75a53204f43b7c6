/**
 * The answers the gateway put into the page it served (`<script type="application/json"
 * id="portal-boot">`, gateway/src/first_paint): the API's own answers to the first requests the
 * app makes, keyed by their URL. The request layer takes each one instead of the network, once:
 * a later request for the same URL (a refetch) goes to the gateway as usual.
 */
const BOOT_ID = 'portal-boot';

let answers: Map<string, unknown> | undefined;

function read(): Map<string, unknown> {
  if (answers) return answers;
  answers = new Map();
  const text = document.getElementById(BOOT_ID)?.textContent;
  if (!text) return answers;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') {
      for (const [url, body] of Object.entries(parsed)) answers.set(url, body);
    }
  } catch {
    // A page whose block does not parse: the app asks the gateway, as without one.
  }
  return answers;
}

/** The URLs the page holds answers for (not yet taken). */
export function bootedUrls(): string[] {
  return [...read().keys()];
}

/** The answer the page holds for `url` (path and query, as the request layer builds it), once. */
export function takeBooted(url: string): unknown {
  const held = read();
  const body = held.get(url);
  held.delete(url);
  return body;
}

/** For tests: read the page again. */
export function resetBoot(): void {
  answers = undefined;
}
