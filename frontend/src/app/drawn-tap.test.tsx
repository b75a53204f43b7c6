import { render } from '@testing-library/react';
import { useState } from 'react';

import { DrawnTap } from './drawn-tap';

afterEach(() => {
  document.documentElement.removeAttribute('data-tap');
  document.documentElement.removeAttribute('data-typed');
  document.querySelectorAll('#root').forEach((r) => r.remove());
});

/** The app's first render: two controls and the replay after them, in `#root`. */
function app(onLarge: () => void, onPrint: () => void) {
  const root = document.body.appendChild(document.createElement('div'));
  root.id = 'root';
  return render(
    <>
      <button type="button" aria-label="正文字号大" onClick={onLarge}>
        大
      </button>
      <button type="button" onClick={onPrint}>
        打印本页
      </button>
      <DrawnTap />
    </>,
    { container: root },
  );
}

describe('a press on a drawn control before the app ran', () => {
  it('presses the app’s control of that name once the app has rendered, once', () => {
    document.documentElement.setAttribute('data-tap', '正文字号大');
    const large = jest.fn();
    const print = jest.fn();
    const { unmount } = app(large, print);
    expect(large).toHaveBeenCalledTimes(1);
    expect(print).not.toHaveBeenCalled();
    expect(document.documentElement.hasAttribute('data-tap')).toBe(false);
    unmount();
  });

  it('finds a control without a label by its text', () => {
    document.documentElement.setAttribute('data-tap', '打印本页');
    const print = jest.fn();
    app(jest.fn(), print).unmount();
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('waits for a control the app shows after its first commit', async () => {
    document.documentElement.setAttribute('data-tap', '正文字号大');
    const large = jest.fn();
    const root = document.body.appendChild(document.createElement('div'));
    root.id = 'root';
    const page = (shown: boolean) => (
      <>
        <DrawnTap />
        {shown && (
          <button type="button" aria-label="正文字号大" onClick={large}>
            大
          </button>
        )}
      </>
    );
    const { rerender, unmount } = render(page(false), { container: root });
    expect(document.documentElement.hasAttribute('data-tap')).toBe(false);
    rerender(page(true));
    // A mutation observer's record arrives in a microtask.
    await Promise.resolve();
    expect(large).toHaveBeenCalledTimes(1);
    unmount();
  });

  it('puts what was typed into the drawn search box into the app’s, with the focus', () => {
    document.documentElement.setAttribute('data-typed', '班列');
    const seen: string[] = [];
    function Box() {
      const [value, setValue] = useState('');
      seen.push(value);
      return (
        <form role="search">
          <input type="search" name="q" value={value} onChange={(e) => setValue(e.target.value)} />
        </form>
      );
    }
    const root = document.body.appendChild(document.createElement('div'));
    root.id = 'root';
    const { unmount } = render(
      <>
        <Box />
        <DrawnTap />
      </>,
      { container: root },
    );
    const input = root.querySelector('input')!;
    expect(input.value).toBe('班列');
    // The box's own state has it (a later render keeps it), not only the element.
    expect(seen.at(-1)).toBe('班列');
    expect(document.activeElement).toBe(input);
    unmount();
  });

  it('presses nothing when nothing was pressed', () => {
    const large = jest.fn();
    const print = jest.fn();
    app(large, print).unmount();
    expect(large).not.toHaveBeenCalled();
    expect(print).not.toHaveBeenCalled();
  });
});
