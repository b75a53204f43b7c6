import { hashRouteOf } from './app/location';
import { localeOfLang, setLocale } from './lib/locale';
import { pageHref } from './lib/page-href';

// The page's language, as the gateway wrote it on `<html lang>`: before any module of the app
// builds an address or a string.
setLocale(localeOfLang(document.documentElement.lang));

// The app's script, evaluated in three tasks rather than one: React DOM (~40 ms of a desktop
// core, 4× that on Lighthouse's phone), then the app's modules and its store, then the start. A
// task that long holds back the visitor's taps and scrolls, and a phone's Total Blocking Time
// counts each task's time over 50 ms: one task of 390 ms there (Chromium at 4× CPU, home page) was
// 340 ms of it; the three tasks now take 50–84 ms each (docs/performance.md, "Phones"). `webpackMode: "eager"` keeps both modules in
// this bundle (no request more), evaluated only when asked for.

/** The rest of this task is the browser's: input, paint, the next task. */
const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
    if (typeof scheduler?.yield === 'function') void scheduler.yield().then(resolve);
    else setTimeout(resolve, 0);
  });

async function start(): Promise<void> {
  // A spec hash route (`/portal/#/article/2101`) is the page at its real URL: index.html's head
  // script sends it there before anything paints; a browser that ran this first goes there now.
  const hashRoute = hashRouteOf(window.location.hash);
  if (hashRoute) {
    window.location.replace(pageHref(hashRoute));
    return;
  }
  const dom = await import(/* webpackMode: "eager" */ 'react-dom/client');
  await nextTask();
  const { startApp } = await import(/* webpackMode: "eager" */ './start-app');
  await nextTask();
  startApp(dom);
}

void start();
