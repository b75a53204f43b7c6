import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { replayClicks, takeEarlyClicks } from './early-clicks';

/** The inline script of public/index.html, as the page runs it before the app. */
const html = readFileSync(join(__dirname, '../../public/index.html'), 'utf8');
const inline = /<script>([^<]*)<\/script>/.exec(html)![1];

/** What hydration leaves on a node React adopted. */
const adopt = (node: Element) => Object.assign(node, { __reactProps$test: {} });
const press = (node: Element) => node.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));

describe('a press before the app runs', () => {
  let added: [string, EventListenerOrEventListenerObject | null, boolean | AddEventListenerOptions | undefined][];
  beforeEach(() => {
    // The script adds its listener to `document`: a fresh one for each case, removed after it.
    added = [];
    const add = document.addEventListener.bind(document);
    jest.spyOn(document, 'addEventListener').mockImplementation((type, listener, options) => {
      added.push([type, listener, options]);
      add(type, listener, options);
    });
    new Function(inline)();
    document.body.innerHTML = `
      <button type="button" id="care">关怀版</button>
      <button type="button" id="next"><span>下一张</span></button>
      <form><button id="submit">搜索</button></form>
      <a href="#site-nav" role="button" id="menu">菜单</a>`;
    // A browser sends the form; jsdom cannot, and says so on the console.
    document.querySelector('form')!.addEventListener('submit', (event) => event.preventDefault());
  });
  afterEach(() => {
    jest.restoreAllMocks();
    for (const [type, listener, options] of added) if (listener) document.removeEventListener(type, listener, options);
    document.body.innerHTML = '';
  });

  it('is noted for buttons without an action of their own, in order, and replayed on the same nodes', () => {
    const next = document.getElementById('next')!;
    const care = document.getElementById('care')!;
    press(next.querySelector('span')!);
    press(care);
    // A form's button and a link work without the app: not noted.
    press(document.getElementById('submit')!);
    press(document.getElementById('menu')!);
    const pressed = takeEarlyClicks();
    expect(pressed).toEqual([next, care]);

    const seen: string[] = [];
    next.addEventListener('click', () => seen.push('下一张'));
    care.addEventListener('click', () => seen.push('关怀版'));
    // Each waits until React has adopted it (hydration gives it its props), in order.
    jest.useFakeTimers();
    replayClicks(pressed);
    adopt(care);
    jest.advanceTimersByTime(100);
    expect(seen).toEqual([]);
    adopt(next);
    jest.advanceTimersByTime(100);
    expect(seen).toEqual(['下一张', '关怀版']);
    jest.useRealTimers();
  });

  it('is dropped when its button is not adopted in time', () => {
    const care = document.getElementById('care')!;
    press(care);
    const clicked = jest.fn();
    care.addEventListener('click', clicked);
    jest.useFakeTimers();
    replayClicks(takeEarlyClicks(), 1000);
    jest.advanceTimersByTime(2000);
    adopt(care);
    jest.advanceTimersByTime(2000);
    expect(clicked).not.toHaveBeenCalled();
    jest.useRealTimers();
  });

  it('is no longer noted once the app has taken the list (React replays what comes during hydration)', () => {
    press(document.getElementById('care')!);
    expect(takeEarlyClicks()).toHaveLength(1);
    press(document.getElementById('next')!);
    expect(takeEarlyClicks()).toEqual([]);
  });

  it('is not replayed on a button the app has since removed', () => {
    const care = document.getElementById('care')!;
    press(care);
    const pressed = takeEarlyClicks();
    const clicked = jest.fn();
    care.addEventListener('click', clicked);
    care.remove();
    replayClicks(pressed);
    expect(clicked).not.toHaveBeenCalled();
  });
});
