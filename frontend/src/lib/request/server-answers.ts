// The server render's side of the request layer. The gateway renders a page in its JavaScript
// engine, where nothing can be fetched: it hands the render the API's own answers for the URLs the
// page asks for (from its content service and cache, as `/portal/api` would answer them), and a
// URL the render asks for that is not among them is noted, so the gateway can fetch it and render
// again (`src/server.tsx`). In the browser none of this is used.

/** An answer as the gateway gives it: the API's HTTP status and its envelope. */
export interface HeldAnswer {
  status: number;
  body: unknown;
}

let held = new Map<string, HeldAnswer>();
const needed = new Set<string>();
const read = new Set<string>();

/** Starts a render with these answers, keyed by URL (path and query, as `request` builds it). */
export function holdAnswers(answers: Record<string, HeldAnswer>): void {
  held = new Map(Object.entries(answers));
  needed.clear();
  read.clear();
}

/** The answer held for `url`, or undefined after noting that the render needs it. */
export function heldAnswer(url: string): HeldAnswer | undefined {
  const answer = held.get(url);
  read.add(url);
  if (!answer) needed.add(url);
  return answer;
}

/** The URLs asked for since `holdAnswers` that had no answer. */
export function neededUrls(): string[] {
  return [...needed];
}

/**
 * Every URL asked for since `holdAnswers`, held or not: what the page read. The gateway gives a
 * page's next render these at once (no round of asking) and keys the page's tags to them alone.
 */
export function readUrls(): string[] {
  return [...read];
}
