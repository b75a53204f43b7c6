import { act, render, screen } from '@testing-library/react';

import { notify } from '../lib/notify';
import { Notifications } from './notifications';

describe('notifications', () => {
  it('shows a message and closes it after 1.5 s', () => {
    jest.useFakeTimers();
    render(<Notifications />);
    act(() => notify('栏目已停用'));
    expect(screen.getByText('栏目已停用')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1400));
    expect(screen.getByText('栏目已停用')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(200));
    expect(screen.queryByText('栏目已停用')).not.toBeInTheDocument();
    jest.useRealTimers();
  });
});
