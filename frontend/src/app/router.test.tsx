import { cleanup, render, screen } from '@testing-library/react';
import { Router } from 'wouter';

import { BASE } from '../lib/page-href';

import { AppRoutes } from './router';
import { ROUTES, flattenRoutes, type PageKey } from './routes';

// Each page module answers with its kind and the path it was given, so the test sees which page
// the router chose for a route. The CMS queries answer with nothing (no category: the table's names).
function mockPage(kind: PageKey) {
  return { __esModule: true, default: ({ path }: { path: string }) => `${kind}:${path}` };
}
jest.mock('./pages/home-page', () => mockPage('home'));
jest.mock('./pages/group-page', () => mockPage('group'));
jest.mock('../features/articles/pages/single-page', () => mockPage('single'));
jest.mock('../features/articles/pages/news-list-page', () => mockPage('news'));
jest.mock('../features/articles/pages/party-construction-page', () => mockPage('partyConstruction'));
jest.mock('../features/articles/pages/party-page', () => mockPage('party'));
jest.mock('../features/articles/pages/party-detail-page', () => mockPage('partyDetail'));
jest.mock('../features/site/login-page', () => mockPage('login'));
jest.mock('./pages/sitemap-page', () => mockPage('sitemap'));
jest.mock('./pages/contact-page', () => mockPage('contact'));
jest.mock('./pages/accessibility-page', () => mockPage('accessibility'));
jest.mock('./pages/whistleblowing-page', () => mockPage('whistleblowing'));
jest.mock('./pages/legal-page', () => mockPage('legal'));
jest.mock('./pages/privacy-page', () => mockPage('privacy'));
jest.mock('./layout/layout', () => ({ Layout: ({ children }: { children: unknown }) => children }));
jest.mock('../features/categories', () => ({
  ...jest.requireActual('../features/categories'),
  useGetCategoriesQuery: () => ({ data: [], isLoading: false }),
}));
jest.mock('../features/articles', () => ({
  ...jest.requireActual('../features/articles'),
  useGetArticleQuery: () => ({ currentData: undefined, isError: false }),
}));
jest.mock('../features/site', () => ({
  ...jest.requireActual('../features/site'),
  useGetSiteQuery: () => ({ data: undefined }),
}));

// jsdom has no scrolling; each route starts at the top (ScrollToTop).
beforeAll(() => jest.spyOn(window, 'scrollTo').mockImplementation(() => {}));
afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

/** The app's routes at the real address `/portal{path}`, as the browser routes them (history, base /portal). */
function renderAt(path: string) {
  window.history.replaceState(null, '', `${BASE}${path}`);
  return render(
    <Router base={BASE}>
      <AppRoutes />
    </Router>,
  );
}

describe('the router', () => {
  const own = flattenRoutes(ROUTES).filter((r) => !r.sameAs);
  const same = flattenRoutes(ROUTES).filter((r) => r.sameAs);

  it.each(own.map((r) => [r.path!, r.page!] as const))('renders %s with its %s page', async (path, page) => {
    renderAt(path);
    expect(await screen.findByText(`${page}:${path}`)).toBeInTheDocument();
  });

  it.each(same.map((r) => [r.path!, r.sameAs!] as const))('sends %s on to %s, the page it duplicates', async (path, target) => {
    const historyLength = window.history.length;
    renderAt(path);
    const page = flattenRoutes(ROUTES).find((r) => r.path === target)!.page;
    expect(await screen.findByText(`${page}:${target}`)).toBeInTheDocument();
    // The address bar shows the page's own address, the duplicate replaced in history.
    expect(window.location.pathname).toBe(`/portal${target}`);
    expect(window.history.length).toBe(historyLength);
  });
});

describe('the scroll on a route', () => {
  // The router's module as a browser loads it at a page's address: a fresh copy (it notes the
  // address it was loaded at), with React, its DOM and wouter from the same fresh registry (the
  // testing library's `pure` entry: it adds no hooks, which a test may not).
  function loadAt(path: string) {
    window.history.replaceState(null, '', `${BASE}${path}`);
    let loaded: {
      React: typeof import('react');
      rtl: typeof import('@testing-library/react/pure');
      wouter: typeof import('wouter');
      navigate: typeof import('wouter/use-browser-location').navigate;
      AppRoutes: typeof AppRoutes;
    } | undefined;
    jest.isolateModules(() => {
      loaded = {
        React: require('react'),
        rtl: require('@testing-library/react/pure'),
        wouter: require('wouter'),
        navigate: require('wouter/use-browser-location').navigate,
        AppRoutes: require('./router').AppRoutes,
      };
    });
    return loaded!;
  }

  it('keeps where the visitor is on the page the browser loaded, and starts a page opened in place at the top', async () => {
    const scrollTo = window.scrollTo as jest.Mock;
    const { React, rtl, wouter, navigate, AppRoutes: Routes } = loadAt('/about/company_profile');
    scrollTo.mockClear();
    // The app's first commit, as when it hydrates the page a phone has shown (and been scrolled
    // on) for seconds: a scroll to the top then moved the page under the visitor's finger.
    rtl.render(React.createElement(wouter.Router, { base: BASE, children: React.createElement(Routes) }));
    expect(await rtl.screen.findByText('single:/about/company_profile')).toBeInTheDocument();
    expect(scrollTo).not.toHaveBeenCalled();
    rtl.act(() => navigate(`${BASE}/about/organizational_structure`));
    expect(await rtl.screen.findByText('single:/about/organizational_structure')).toBeInTheDocument();
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    rtl.cleanup();
  });
});
