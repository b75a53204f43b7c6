import { act, fireEvent, render } from '@testing-library/react';

import { BackToTop } from './back-to-top';

describe('返回顶部', () => {
  it('is a link to the top, out of sight at the top and in sight past a screen and a half', () => {
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 800 });
    const frames: FrameRequestCallback[] = [];
    jest.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => frames.push(cb));
    window.scrollY = 0;
    const { container } = render(<BackToTop />);
    const link = container.querySelector('a.to-top')!;
    expect(link).toHaveAttribute('href', '#top');
    expect(link).not.toHaveClass('is-shown');
    expect(link).toHaveAttribute('tabindex', '-1');
    window.scrollY = 1300;
    fireEvent.scroll(window);
    act(() => frames.splice(0).forEach((cb) => cb(0)));
    expect(link).toHaveClass('is-shown');
    expect(link).not.toHaveAttribute('tabindex');
    expect(link).toHaveAccessibleName('顶部 （返回顶部）');
    window.scrollY = 100;
    fireEvent.scroll(window);
    act(() => frames.splice(0).forEach((cb) => cb(0)));
    expect(link).not.toHaveClass('is-shown');
  });
});
