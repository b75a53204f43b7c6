// The sign-in page on the English pages (`/portal/en/login`).
import { render, screen } from '@testing-library/react';

import { setLocale } from '../../lib/locale';
import LoginPage from './login-page';

const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

const mockSite: { data: { loginUrl: string } | undefined; isError: boolean } = { data: undefined, isError: false };
jest.mock('./api', () => ({
  ...jest.requireActual('./api'),
  useGetSiteQuery: () => mockSite,
}));

beforeEach(() => setLocale('en'));
afterEach(() => {
  setLocale('zh');
  mockSite.data = undefined;
  mockSite.isError = false;
});

test('says where it is taking the visitor, in English', () => {
  const { container } = render(<LoginPage />);
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Sign in');
  expect(screen.getByRole('status')).toHaveTextContent('Taking you to the sign-in page…');
  expect(container.textContent).not.toMatch(CJK);
});

test('offers the link, or says the page cannot be opened, in English', () => {
  // The page never leaves jsdom: the address it is sent to is `#`.
  mockSite.data = { loginUrl: '#' };
  const linked = render(<LoginPage />);
  expect(screen.getByRole('link', { name: 'sign in here' }).parentElement).toHaveTextContent('If you are not redirected automatically, sign in here.');
  expect(linked.container.textContent).not.toMatch(CJK);
  linked.unmount();
  mockSite.data = { loginUrl: '' };
  const closed = render(<LoginPage />);
  expect(screen.getByText(/The sign-in page cannot be opened at the moment/)).toBeInTheDocument();
  expect(closed.container.textContent).not.toMatch(CJK);
});
