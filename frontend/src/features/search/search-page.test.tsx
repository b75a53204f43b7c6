import { fireEvent, render, screen, within } from '@testing-library/react';
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
  const location = memoryLocation({ path: '/search?q=%E7%8F%AD%E5%88%97', record: true });
  const { hook, searchHook } = location;
  render(
    <Provider store={makeStore()}>
      <Router hook={hook} searchHook={searchHook}>
        <SearchPage paginationLocale="zh-CN" />
      </Router>
    </Provider>,
  );
  return location;
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

test('按时间筛选 takes days written 年-月-日 whatever the browser’s language, and says which one is no day', () => {
  mockAnswer.page = answer(false);
  const location = show();
  const form = screen.getByRole('form', { name: '按时间筛选' });
  const from = within(form).getByLabelText('发布时间从');
  const to = within(form).getByLabelText('至');
  // Text in the order Chinese is written, not a date field in the browser's (mm/dd/yyyy in English).
  expect(from).toHaveAttribute('type', 'text');
  expect(from).toHaveAttribute('placeholder', '年-月-日');
  fireEvent.change(from, { target: { value: '2026年1月5日' } });
  fireEvent.change(to, { target: { value: '2026-02-30' } });
  fireEvent.submit(form);
  expect(within(form).getByRole('alert')).toHaveTextContent('结束日期“2026-02-30”不是有效的日期');
  expect(location.history).toHaveLength(1);
  fireEvent.change(to, { target: { value: '2026/3/1' } });
  fireEvent.submit(form);
  // Sent as the days they are (the results are then drawn anew for their address).
  expect(location.history.at(-1)).toBe('/search?q=%E7%8F%AD%E5%88%97&from=2026-01-05&to=2026-03-01');
});
