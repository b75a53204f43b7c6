import { act, render, screen } from '@testing-library/react';

import { usePainted } from './after-paint';

function Page() {
  const painted = usePainted();
  return (
    <main>
      <h1>头条</h1>
      {painted && <p>业务板块</p>}
    </main>
  );
}

describe('usePainted', () => {
  afterEach(() => jest.useRealTimers());

  it('is false in the first render and true once a frame has been drawn, in a task of its own', () => {
    jest.useFakeTimers();
    render(<Page />);
    expect(screen.getByRole('heading', { name: '头条' })).toBeInTheDocument();
    expect(screen.queryByText('业务板块')).toBeNull();
    act(() => {
      jest.runAllTimers();
    });
    expect(screen.getByText('业务板块')).toBeInTheDocument();
  });
});
