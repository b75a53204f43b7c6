import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { Pagination, pageWindow } from './pagination';

describe('pagination', () => {
  it('shows the first, last and neighbours of the current page', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(5, 10)).toEqual([1, 'gap', 4, 5, 6, 'gap', 10]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
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
