import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { Pagination, pageWindow } from './pagination';

describe('pagination', () => {
  it('shows the first, last and neighbours of the current page', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(5, 10)).toEqual([1, 'gap', 4, 5, 6, 'gap', 10]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
  });

  it('on a phone shows only the first, current and last page, so the pager fits one row', () => {
    expect(pageWindow(4, 7, 0)).toEqual([1, 'gap', 4, 'gap', 7]);
    expect(pageWindow(1, 7, 0)).toEqual([1, 'gap', 7]);
    // Up to four pages all fit.
    expect(pageWindow(1, 3, 0)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 4)).toEqual([1, 2, 3, 4]);
  });

  it('follows the phone width (768 px and below) as the window changes', () => {
    const matchMedia = window.matchMedia;
    let phone = true;
    const listeners = new Set<() => void>();
    window.matchMedia = ((query: string) => ({
      get matches() {
        return query === '(max-width: 768px)' && phone;
      },
      addEventListener: (_: string, l: () => void) => listeners.add(l),
      removeEventListener: (_: string, l: () => void) => listeners.delete(l),
    })) as unknown as typeof window.matchMedia;
    try {
      const { container } = render(<Pagination page={4} pageSize={10} total={70} onChange={() => {}} locale="zh-CN" />);
      const numbers = () => screen.getAllByRole('button', { name: /^第 \d+ 页$/ }).map((b) => b.textContent);
      expect(container.querySelector('nav')).toHaveClass('pagination--compact');
      expect(numbers()).toEqual(['1', '4', '7']);
      phone = false;
      act(() => listeners.forEach((l) => l()));
      expect(container.querySelector('nav')).not.toHaveClass('pagination--compact');
      expect(numbers()).toEqual(['1', '3', '4', '5', '7']);
    } finally {
      window.matchMedia = matchMedia;
    }
  });

  it('labels in English by default and in Chinese on request', async () => {
    const onChange = jest.fn();
    const { rerender } = render(<Pagination page={1} pageSize={10} total={25} onChange={onChange} />);
    expect(screen.getByText('Total 25 items')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onChange).toHaveBeenCalledWith(2);
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(onChange).toHaveBeenCalledWith(3);
    rerender(<Pagination page={3} pageSize={10} total={25} onChange={onChange} locale="zh-CN" />);
    expect(screen.getByText('共 25 条')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '下一页' })).toBeDisabled();
    expect(screen.getByRole('button', { name: '第 3 页' })).toHaveAttribute('aria-current', 'page');
  });

  it('offers 跳至 N 页 on long lists only, bringing the number into range', async () => {
    const onChange = jest.fn();
    const { rerender } = render(<Pagination page={1} pageSize={10} total={50} onChange={onChange} locale="zh-CN" />);
    expect(screen.queryByRole('spinbutton', { name: '跳至页码' })).toBeNull();
    rerender(<Pagination page={1} pageSize={10} total={120} onChange={onChange} locale="zh-CN" />);
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
