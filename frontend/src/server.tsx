// The server bundle's entry: what the gateway's JavaScript engine calls to render a page
// (crates/render runs this bundle; crates/web/src/pages calls `portalRender`). The page is the
// app's own tree (`app/app.tsx`), rendered with React's `renderToString` at the page's address.
//
// The engine fetches nothing: the gateway passes the API's answers for the URLs the page reads.
// A call first runs the page's loader (`app/page-loads.ts`: the queries the page's components
// make, named by route), pass after pass as answers make more of them nameable, without
// rendering; a URL it names that the gateway has not given is answered at once as `{needs}`, and
// the gateway calls again with those answers too (a list page: the tree, then the list of the
// category found in it). With every answer in, the page is rendered once, with its data in place,
// and sent with the store's API state, which the browser hydrates from. Should a component ask
// for something its loader did not name, the render is repeated as before loaders (counted in
// `renders`; `page-loads.test.ts` keeps that from happening on any kind of page).
// The engine is bare ECMAScript: the web's URL and URLSearchParams, which the app reads its
// addresses with, come from core-js (the browser has its own).
import 'core-js/actual/url';
import 'core-js/actual/url-search-params';

import type { Middleware } from '@reduxjs/toolkit';
import { renderToString } from 'react-dom/server.browser';

import { api } from './app/api';
import { App } from './app/app';
import { pageLoads } from './app/page-loads';
import { ResponseStatusContext } from './lib/response-status';
import { preloadAllPages } from './app/router';
import { splitHead } from './app/split-head';
import { makeStore } from './app/store';
import { holdAnswers, neededUrls, type HeldAnswer } from './lib/request';

/** What the gateway passes: the address to render and the answers it has so far, by API URL. */
interface RenderInput {
  url: string;
  answers: Record<string, HeldAnswer>;
}

/** Passes of the loader, and of renders should a component ask for more, within one call. */
const MAX_PASSES = 8;

/** A query's start, as RTK Query dispatches it once it has decided to ask. */
interface QueryPending {
  type: string;
  meta?: { arg?: { queryCacheKey?: string } };
}

/**
 * A middleware that drops the start of a query already in `settled` (its `queryCacheKey`): a
 * render's hooks then show what is in the store, where RTK Query would ask again for an error
 * (it refetches a failed query for each new subscriber) and draw the page while that is pending.
 * Dropping the start drops its end too (RTK Query takes an answer only for the request it started).
 */
function askingNothingSettled(settled: ReadonlySet<string>): Middleware {
  return () => (next) => (action) => {
    const { type, meta } = action as QueryPending;
    const key = meta?.arg?.queryCacheKey;
    if (key !== undefined && type === `${api.reducerPath}/executeQuery/pending` && settled.has(key)) return undefined;
    return next(action);
  };
}

// Every page's code is in this bundle: loaded once, before the first render.
const pagesReady = preloadAllPages();

async function render(input: string): Promise<string> {
  await pagesReady;
  const { url, answers } = JSON.parse(input) as RenderInput;
  holdAnswers(answers ?? {});
  const settled = new Set<string>();
  const store = makeStore(undefined, askingNothingSettled(settled));
  const queriesNow = () => Object.keys(store.getState()[api.reducerPath].queries);
  try {
    // The loader: its queries, then those their answers name, until it names nothing new.
    const started = new Set<string>();
    for (let pass = 0; ; pass += 1) {
      if (pass === MAX_PASSES) throw new Error(`the loader of ${url} kept naming queries after ${MAX_PASSES} passes`);
      const fresh = pageLoads(url, store.getState()).filter((query) => !started.has(query.key));
      if (fresh.length === 0) break;
      const running = fresh.map((query) => {
        started.add(query.key);
        return query.start(store.dispatch);
      });
      const needs = neededUrls();
      if (needs.length > 0) return JSON.stringify({ needs, renders: 0 });
      await Promise.all(running);
    }
    for (let renders = 1; renders <= MAX_PASSES; renders += 1) {
      queriesNow().forEach((key) => settled.add(key));
      const status = { status: 200 };
      const html = renderToString(
        <ResponseStatusContext value={status}>
          <App store={store} ssrPath={url} />
        </ResponseStatusContext>,
      );
      const needs = neededUrls();
      if (needs.length > 0) return JSON.stringify({ needs, renders });
      // A query the loader did not name, answered from what the gateway gave: rendered again
      // once it is in, as the page showed it loading.
      const running = store.dispatch(api.util.getRunningQueriesThunk());
      if (running.length > 0) {
        await Promise.all(running);
        continue;
      }
      const { head, body } = splitHead(html);
      return JSON.stringify({
        status: status.status,
        head,
        html: body,
        state: { [api.reducerPath]: store.getState()[api.reducerPath] },
        renders,
      });
    }
    throw new Error(`the page at ${url} kept asking for more after ${MAX_PASSES} renders`);
  } finally {
    holdAnswers({});
  }
}

(globalThis as { portalRender?: (input: string) => Promise<string> }).portalRender = render;
