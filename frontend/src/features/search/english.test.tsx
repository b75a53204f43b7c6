// The search on the English pages (`/portal/en/search`): every word the app writes is English.
import { fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';

import { makeStore } from '../../app/store';
import { setLocale } from '../../lib/locale';
import type { SearchPage as Page } from './api';
import { SearchBox } from './search-box';
import SearchPage from './search-page';

const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

const mockAnswer: { page: Page | undefined; isError: boolean } = { page: undefined, isError: false };
jest.mock('./api', () => ({
  ...jest.requireActual('./api'),
  useSearchArticlesQuery: () => ({ data: mockAnswer.page, currentData: mockAnswer.page, isFetching: false, isError: mockAnswer.isError }),
}));

const hit = (id: number) => ({
  id,
  categoryId: 21,
  title: `Freight train ${id}`,
  publishTime: '2026-11-05 09:00:00',
  summary: 'A freight train left for Europe.',
});

const answer = (total: number, building = false): Page => ({
  content: Array.from({ length: Math.min(total, 10) }, (_, i) => hit(i + 1)),
  totalElements: total,
  totalPages: Math.ceil(total / 10),
  page: 1,
  size: 10,
  source: 'index',
  sections: Array.from({ length: 8 }, (_, i) => ({ id: 20 + i, name: `Section ${i}`, count: 1 + i })),
  ...(building ? { building: true } : {}),
});

function show(path = '/search?q=freight&section=21') {
  const location = memoryLocation({ path, record: true });
  const view = render(
    <Provider store={makeStore()}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <SearchPage paginationLocale="en" shortcuts={[{ path: '/services/freight', name: 'Freight services', description: 'Book a train' }]} />
      </Router>
    </Provider>,
  );
  return { ...view, location };
}

beforeEach(() => {
  setLocale('en');
  mockAnswer.page = undefined;
  mockAnswer.isError = false;
});
afterEach(() => setLocale('zh'));

test('the results, their filters and their notes are in English', () => {
  mockAnswer.page = answer(1234, true);
  const { container } = show();
  expect(container.textContent).not.toMatch(CJK);
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Search');
  expect(screen.getByText('1,234 results for “freight”')).toBeInTheDocument();
  expect(screen.getByRole('status')).toHaveTextContent('The search index is still being built');
  expect(screen.getByRole('navigation', { name: 'Filter by section' })).toHaveTextContent('More sections (2)');
  expect(screen.getByRole('region', { name: 'Quick links' })).toBeInTheDocument();
  expect(screen.getByRole('search', { name: 'Search again' })).toBeInTheDocument();
  for (const el of container.querySelectorAll('*')) {
    for (const attribute of ['aria-label', 'placeholder', 'title', 'alt']) expect(el.getAttribute(attribute) ?? '').not.toMatch(CJK);
  }
});

test('按时间筛选 asks for YYYY-MM-DD and says in English which day is no day', () => {
  mockAnswer.page = answer(1);
  const { location } = show('/search?q=freight');
  const form = screen.getByRole('form', { name: 'Filter by date' });
  const from = within(form).getByLabelText('Published from');
  expect(from).toHaveAttribute('placeholder', 'YYYY-MM-DD');
  expect(within(form).getByLabelText('to')).toHaveAttribute('placeholder', 'YYYY-MM-DD');
  expect(screen.getByText('1 result for “freight”')).toBeInTheDocument();
  fireEvent.change(from, { target: { value: '2026-02-30' } });
  fireEvent.submit(form);
  expect(within(form).getByRole('alert')).toHaveTextContent('The start date “2026-02-30” is not a valid date. Please write it as YYYY-MM-DD');
  expect(location.history).toHaveLength(1);
  expect(form.textContent).not.toMatch(CJK);
});

test('no keyword, no result and a failed search are said in English', () => {
  const none = show('/search');
  expect(screen.getByText(/Enter the words you are looking for/)).toBeInTheDocument();
  expect(none.container.textContent).not.toMatch(CJK);
  none.unmount();
  mockAnswer.page = { ...answer(0), sections: [] };
  const empty = show('/search?q=freight&from=2026-01-01');
  expect(screen.getByText('No articles found for “freight” (filtered by section or date).')).toBeInTheDocument();
  expect(screen.getByText(/Try widening the filters/)).toBeInTheDocument();
  expect(empty.container.textContent).not.toMatch(CJK);
  empty.unmount();
  mockAnswer.isError = true;
  const failed = show('/search?q=freight');
  expect(screen.getByRole('alert')).toHaveTextContent('Search is temporarily unavailable');
  expect(failed.container.textContent).not.toMatch(CJK);
});

test('the search box asks for a keyword in English', () => {
  render(<SearchBox />);
  const field = screen.getByRole('searchbox', { name: 'Search the site' });
  expect(field).toHaveAttribute('placeholder', 'Search the site');
  fireEvent.submit((field as HTMLInputElement).form!);
  expect(screen.getByRole('alert')).toHaveTextContent('Please enter a keyword of 1 to 50 characters.');
  expect(screen.getByRole('button', { name: 'Search' })).toBeInTheDocument();
  expect(document.body.textContent).not.toMatch(CJK);
});
