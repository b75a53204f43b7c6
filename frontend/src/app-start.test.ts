import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// When the page starts the app: public/index.html's head script adds the app's scripts (named in
// the page's `<template id="portal-app">`, which the browser neither fetches nor runs) once the page
// has been painted and its main picture drawn; at once for the app shell.

const html = readFileSync(join(__dirname, '../public/index.html'), 'utf8');
const inline = /<script>([^<]*)<\/script>/.exec(html)![1];

/** The scripts the head script has added, by their `src`. */
const added = () => [...document.head.querySelectorAll(':scope > script[src]')].map((s) => (s as HTMLScriptElement).src);
/** A server-rendered page's body: its markup in the root, and `rest`. */
const page = (rest = '') => `<div id="root"><main><p>正文</p>${rest}</main></div>`;

describe('the first paint', () => {
  it('waits for the header to be read whole: the template blocks rendering until <main> starts', () => {
    const head = new DOMParser().parseFromString(html, 'text/html').head;
    const expect_ = head.querySelector('link[rel="expect"]');
    expect(expect_?.getAttribute('href')).toBe('#main-content');
    expect(expect_?.getAttribute('blocking')).toBe('render');
  });
});

describe('the app’s start', () => {
  let listeners: [string, EventListenerOrEventListenerObject][];
  beforeEach(() => {
    jest.useFakeTimers();
    listeners = [];
    const add = document.addEventListener.bind(document);
    jest.spyOn(document, 'addEventListener').mockImplementation((type, listener, options) => {
      if (listener) listeners.push([type, listener]);
      add(type, listener, options);
    });
    document.head.innerHTML = `
      <link rel="preload" as="image" href="/portal/api/files/covers/a.svg">
      <template id="portal-app"><script src="/portal/assets/runtime.js"></script><script src="/portal/assets/main.js"></script></template>`;
  });
  afterEach(() => {
    jest.restoreAllMocks();
    jest.useRealTimers();
    for (const [type, listener] of listeners) document.removeEventListener(type, listener);
    document.head.innerHTML = '';
    document.body.innerHTML = '';
  });

  const parsed = () => document.dispatchEvent(new Event('DOMContentLoaded'));

  it('waits for the main picture to load and be painted, then adds the app’s scripts once, in order', () => {
    document.body.innerHTML = page('<img src="/portal/api/files/covers/a.svg" fetchpriority="high" alt="">');
    const picture = document.querySelector('img')!;
    Object.defineProperty(picture, 'complete', { value: false });
    new Function(inline)();
    parsed();
    jest.advanceTimersByTime(2000);
    expect(added()).toEqual([]);
    picture.dispatchEvent(new Event('load'));
    expect(added()).toEqual([]);
    // The next frame is drawn, then the scripts are added.
    jest.advanceTimersByTime(20);
    expect(added()).toEqual(['http://localhost/portal/assets/runtime.js', 'http://localhost/portal/assets/main.js']);
    const scripts = [...document.head.querySelectorAll(':scope > script[src]')] as HTMLScriptElement[];
    // In the order named, each run as soon as it and those before it are there.
    expect(scripts.every((s) => !s.async)).toBe(true);
    jest.advanceTimersByTime(5000);
    expect(added()).toHaveLength(2);
  });

  it('starts the app anyway when the picture is slow or fails', () => {
    document.body.innerHTML = page('<img src="/x.jpg" fetchpriority="high" alt="">');
    Object.defineProperty(document.querySelector('img')!, 'complete', { value: false });
    new Function(inline)();
    parsed();
    jest.advanceTimersByTime(2900);
    expect(added()).toEqual([]);
    jest.advanceTimersByTime(100);
    expect(added()).toHaveLength(2);

    document.head.querySelectorAll(':scope > script').forEach((s) => s.remove());
    document.body.innerHTML = page('<img src="/y.jpg" fetchpriority="high" alt="">');
    const failing = document.querySelector('img')!;
    Object.defineProperty(failing, 'complete', { value: false });
    new Function(inline)();
    parsed();
    failing.dispatchEvent(new Event('error'));
    jest.advanceTimersByTime(20);
    expect(added()).toHaveLength(2);
  });

  it('adds the scripts after the first paint when the page has no main picture, or it is already there', () => {
    document.body.innerHTML = page();
    new Function(inline)();
    expect(added()).toEqual([]);
    parsed();
    jest.advanceTimersByTime(20);
    expect(added()).toHaveLength(2);

    document.head.querySelectorAll(':scope > script').forEach((s) => s.remove());
    document.body.innerHTML = page('<img src="/z.svg" fetchpriority="high" alt="">');
    Object.defineProperty(document.querySelector('img')!, 'complete', { value: true });
    new Function(inline)();
    parsed();
    jest.advanceTimersByTime(20);
    expect(added()).toHaveLength(2);
  });

  it('waits for the browser’s first contentful paint where it reports paints', () => {
    let observed: ((list: { getEntriesByName: (name: string) => unknown[] }, observer: { disconnect: () => void }) => void) | undefined;
    const disconnect = jest.fn();
    Object.assign(window, {
      PerformanceObserver: Object.assign(
        function Observer(this: unknown, callback: typeof observed) {
          observed = callback;
          return { observe: () => undefined, disconnect };
        },
        { supportedEntryTypes: ['paint', 'largest-contentful-paint'] },
      ),
    });
    // Nothing painted yet when the page is parsed.
    Object.assign(performance, { getEntriesByName: () => [] });
    try {
      document.body.innerHTML = page();
      new Function(inline)();
      parsed();
      jest.advanceTimersByTime(500);
      expect(added()).toEqual([]);
      // A first paint with nothing in it yet: still waiting.
      observed!({ getEntriesByName: (name) => (name === 'first-paint' ? [{}] : []) }, { disconnect });
      jest.advanceTimersByTime(20);
      expect(added()).toEqual([]);
      observed!({ getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{}] : []) }, { disconnect });
      expect(disconnect).toHaveBeenCalled();
      jest.advanceTimersByTime(20);
      expect(added()).toHaveLength(2);
    } finally {
      delete (performance as { getEntriesByName?: unknown }).getEntriesByName;
      delete (window as { PerformanceObserver?: unknown }).PerformanceObserver;
    }
  });

  it('adds the scripts at once for the app shell, which has nothing to paint', () => {
    document.body.innerHTML = '<div id="root"></div>';
    new Function(inline)();
    parsed();
    expect(added()).toHaveLength(2);
  });

  it('fetches the shown page’s chunk with the app’s scripts, after them in order', () => {
    document.head.insertAdjacentHTML('beforeend', '<meta name="portal-page-chunk" content="page-news">');
    document.querySelector('#portal-app')!.innerHTML +=
      '<link data-chunk="page-home" href="/portal/assets/page-home.js"><link data-chunk="page-news" href="/portal/assets/page-news.js">';
    document.body.innerHTML = page();
    new Function(inline)();
    parsed();
    jest.advanceTimersByTime(20);
    expect(added()).toEqual([
      'http://localhost/portal/assets/runtime.js',
      'http://localhost/portal/assets/main.js',
      'http://localhost/portal/assets/page-news.js',
    ]);
  });
});
