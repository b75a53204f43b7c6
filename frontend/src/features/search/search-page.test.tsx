import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';

import { makeStore } from '../../app/store';
import type { SearchPage as Page } from './api';
import SearchPage from './search-page';

// The search answers from this; `undefined`: still loading.
const mockAnswer: { page: Page | undefined } = { page: undefined };
jest.mock('./api', () => ({
  ...jest.requireActual('./api'),
  useSearchArticlesQuery: () => ({ data: mockAnswer.page, currentData: mockAnswer.page, isFetching: false, isError: false }),
}));

const answer = (building: boolean): Page => ({
  content: [
    {
      id: 5,
      categoryId: 21,
      title: '班列开行',
      publishTime: '2026-11-05 09:00:00',
      highlight: { title: [{ text: '班列', match: true }, { text: '开行', match: false }], fragment: [] },
    },
  ],
  totalElements: 1,
  totalPages: 1,
  page: 1,
  size: 10,
  source: 'index',
  ...(building ? { building: true } : {}),
});

function show() {
  const { hook, searchHook } = memoryLocation({ path: '/search?q=%E7%8F%AD%E5%88%97' });
  render(
    <Provider store={makeStore()}>
      <Router hook={hook} searchHook={searchHook}>
        <SearchPage paginationLocale="zh-CN" />
      </Router>
    </Provider>,
  );
}

test('while the index is first built, the page says its results are of what it holds so far', () => {
  mockAnswer.page = answer(true);
  show();
  expect(screen.getByRole('status')).toHaveTextContent('站内搜索正在建立索引');
});

test('a whole index says nothing of it', () => {
  mockAnswer.page = answer(false);
  show();
  expect(screen.queryByText(/正在建立索引/)).toBeNull();
});
