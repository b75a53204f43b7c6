import { act, render } from '@testing-library/react';
import { Router } from 'wouter';

import { Canonical } from './canonical';
import { useHashPath } from './hash-location';

const canonical = () => [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="canonical"]')].map((l) => l.href);
const go = (hash: string) =>
  act(() => {
    window.location.hash = hash;
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  });

afterEach(() => document.head.querySelectorAll('link[rel="canonical"]').forEach((l) => l.remove()));

describe('the canonical link', () => {
  it("follows the route: the crawlable page's address, else the app's own; one link, also when the page brought one", () => {
    const served = document.createElement('link');
    served.rel = 'canonical';
    served.href = 'http://localhost/portal/site/index.html';
    document.head.appendChild(served);
    window.location.hash = '#/news_center/notice?page=2';
    render(
      <Router hook={useHashPath} searchHook={useHashPath.searchHook} hrefs={useHashPath.hrefs}>
        <Canonical />
      </Router>,
    );
    expect(canonical()).toEqual([`${window.location.origin}/portal/site/news_center/notice.html?page=2`]);
    go('#/article/2101');
    expect(canonical()).toEqual([`${window.location.origin}/portal/site/article/2101.html`]);
    go('#/search?q=1');
    expect(canonical()).toEqual([window.location.href]);
    go('#/');
    expect(canonical()).toEqual([`${window.location.origin}/portal/site/index.html`]);
  });
});
