import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { Pagination, pageWindow, phoneNumbers } from './pagination';

describe('pagination', () => {
  it('shows the first, last and neighbours of the current page', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(5, 10)).toEqual([1, 'gap', 4, 5, 6, 'gap', 10]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
  });

  it('never hides a page behind a gap standing for one, and keeps one width as the visitor pages', () => {
    // The review's 5-page list read 1 2 … 5: pages 3 and 4 out of reach.
    expect(pageWindow(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(1, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageWindow(1, 9)).toEqual([1, 2, 3, 4, 5, 'gap', 9]);
    expect(pageWindow(4, 9)).toEqual([1, 2, 3, 4, 5, 'gap', 9]);
    expect(pageWindow(5, 9)).toEqual([1, 'gap', 4, 5, 6, 'gap', 9]);
    expect(pageWindow(9, 9)).toEqual([1, 'gap', 5, 6, 7, 8, 9]);
    for (let pages = 8; pages <= 30; pages += 1) {
      for (let page = 1; page <= pages; page += 1) {
        const row = pageWindow(page, pages);
        expect(row).toHaveLength(7);
        expect(row).toContain(page);
        // A gap stands between numbers at least three apart (two pages or more).
        row.forEach((p, i) => {
          if (p === 'gap') expect((row[i + 1] as number) - (row[i - 1] as number)).toBeGreaterThanOrEqual(3);
        });
      }
    }
  });

  it('on a phone keeps only the first, current and last page, so the pager fits one row', () => {
    expect([...phoneNumbers(4, 7)]).toEqual([1, 4, 7]);
    expect([...phoneNumbers(1, 7)]).toEqual([1, 7]);
    // Up to four pages all fit.
    expect([...phoneNumbers(1, 3)]).toEqual([1, 2, 3]);
    expect([...phoneNumbers(1, 4)]).toEqual([1, 2, 3, 4]);
  });

  it('links every page, and marks the numbers a phone leaves out (the first, current and last stay)', () => {
    const { container } = render(<Pagination page={6} pageSize={10} total={100} onChange={() => {}} hrefOf={(p) => `/portal/x?page=${p}`} locale="zh-CN" />);
    const numbers = screen.getAllByRole('link', { name: /^第 \d+ 页$/ });
    expect(numbers.map((a) => a.textContent)).toEqual(['1', '5', '6', '7', '10']);
    expect(numbers.map((a) => a.getAttribute('href'))).toEqual([1, 5, 6, 7, 10].map((p) => `/portal/x?page=${p}`));
    const near = Array.from(container.querySelectorAll('.pagination__near a')).map((a) => a.textContent);
    expect(near).toEqual(['5', '7']);
    expect(screen.getByRole('link', { name: '上一页' })).toHaveAttribute('href', '/portal/x?page=5');
  });

  it('labels in English by default and in Chinese on request', async () => {
    const onChange = jest.fn();
    const hrefOf = (p: number) => `?page=${p}`;
    const { rerender } = render(<Pagination page={1} pageSize={10} total={25} onChange={onChange} hrefOf={hrefOf} />);
    expect(screen.getByText('Total 25 items')).toBeInTheDocument();
    expect(screen.getByText('Previous')).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(screen.getByRole('link', { name: 'Next' }));
    expect(onChange).toHaveBeenCalledWith(2);
    await userEvent.click(screen.getByRole('link', { name: 'Page 3' }));
    expect(onChange).toHaveBeenCalledWith(3);
    rerender(<Pagination page={3} pageSize={10} total={25} onChange={onChange} hrefOf={hrefOf} locale="zh-CN" />);
    expect(screen.getByText('共 25 条')).toBeInTheDocument();
    expect(screen.getByText('下一页')).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('link', { name: '第 3 页' })).toHaveAttribute('aria-current', 'page');
  });

  it('offers 跳至 N 页 on long lists only, bringing the number into range', async () => {
    const onChange = jest.fn();
    const { rerender } = render(<Pagination page={1} pageSize={10} total={50} onChange={onChange} hrefOf={(p) => `?page=${p}`} locale="zh-CN" />);
    expect(screen.queryByRole('spinbutton', { name: '跳至页码' })).toBeNull();
    rerender(<Pagination page={1} pageSize={10} total={120} onChange={onChange} hrefOf={(p) => `?page=${p}`} locale="zh-CN" />);
    const field = screen.getByRole('spinbutton', { name: '跳至页码' });
    await userEvent.type(field, '7');
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    expect(onChange).toHaveBeenLastCalledWith(7);
    await userEvent.type(field, '99{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(12);
    onChange.mockClear();
    await userEvent.type(field, '1{Enter}');
    expect(onChange).not.toHaveBeenCalled();
  });
});
