import { fireEvent, render, screen } from '@testing-library/react';

import { SearchBox } from './search-box';

describe('站内搜索', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('searches for what the field shows, typed before the app had seen it', () => {
    render(<SearchBox initial="班列" />);
    const field = screen.getByRole('searchbox', { name: '站内搜索' }) as HTMLInputElement;
    // Typed before hydration: in the field, but no change event has reached the app yet.
    field.value = '火星基地';
    fireEvent.submit(field.form!);
    expect(decodeURIComponent(window.location.search)).toBe('?q=火星基地');
  });

  it('asks for a keyword when the field holds only spaces', () => {
    render(<SearchBox />);
    const field = screen.getByRole('searchbox', { name: '站内搜索' }) as HTMLInputElement;
    field.value = '   ';
    fireEvent.submit(field.form!);
    expect(screen.getByRole('alert').textContent).toMatch(/请输入 1 到 \d+ 个字的关键词/);
    expect(window.location.search).toBe('');
  });
});
