// The server bundle's entry: what the gateway's JavaScript engine calls to render a page
// (gateway/src/render runs this bundle; gateway/src/pages calls `portalRender`). The page is the
// app's own tree (`app/app.tsx`), rendered with React's `renderToString` at the page's address.
//
// The engine fetches nothing: the gateway passes the API's answers for the URLs the page asks for.
// A render that asks for a URL it was not given answers `{needs}` at once, and the gateway renders
// again with those answers too (a list page first needs the category tree, then the list of the
// category found in it). Once every query the page started is answered, the page is rendered once
// more with the data in place and sent with the store's API state, which the browser hydrates from.
import { renderToString } from 'react-dom/server.browser';

import { api } from './app/api';
import { App } from './app/app';
import { ResponseStatusContext } from './app/response-status';
import { preloadAllPages } from './app/router';
import { makeStore } from './app/store';
import { holdAnswers, neededUrls, type HeldAnswer } from './lib/request';

/** What the gateway passes: the address to render and the answers it has so far, by API URL. */
interface RenderInput {
  url: string;
  answers: Record<string, HeldAnswer>;
}

/** The rounds of asking within one call: each adds the queries the answers of the last made possible. */
const MAX_PASSES = 8;

/**
 * `<title>`, `<meta>` and `<link>` a page renders are put by React before its markup (it hoists
 * them into the document's head, which it does not render here): they go into the page's head.
 */
const HOISTED = /^(?:<title>[^<]*<\/title>|<meta [^>]*\/>|<link [^>]*\/>)*/;

export function splitHead(html: string): { head: string; body: string } {
  const head = HOISTED.exec(html)?.[0] ?? '';
  return { head, body: html.slice(head.length) };
}

// Every page's code is in this bundle: loaded once, before the first render.
const pagesReady = preloadAllPages();

async function render(input: string): Promise<string> {
  await pagesReady;
  const { url, answers } = JSON.parse(input) as RenderInput;
  holdAnswers(answers ?? {});
  const store = makeStore();
  try {
    for (let pass = 0; pass < MAX_PASSES; pass += 1) {
      const status = { status: 200 };
      const html = renderToString(
        <ResponseStatusContext value={status}>
          <App store={store} ssrPath={url} />
        </ResponseStatusContext>,
      );
      const needs = neededUrls();
      if (needs.length > 0) return JSON.stringify({ needs });
      const running = store.dispatch(api.util.getRunningQueriesThunk());
      if (running.length === 0) {
        const { head, body } = splitHead(html);
        return JSON.stringify({ status: status.status, head, html: body, state: { [api.reducerPath]: store.getState()[api.reducerPath] } });
      }
      await Promise.all(running);
    }
    throw new Error(`the page at ${url} kept asking for more after ${MAX_PASSES} rounds`);
  } finally {
    holdAnswers({});
  }
}

(globalThis as { portalRender?: (input: string) => Promise<string> }).portalRender = render;
