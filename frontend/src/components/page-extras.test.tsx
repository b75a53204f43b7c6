import { render, screen } from '@testing-library/react';

import { ContactCta, safeHref, telHref } from './contact-cta';
import { WhistleblowingBlock } from './whistleblowing';

describe('a business page’s call to action', () => {
  it('offers 咨询热线 as a tel: link and 在线订舱', () => {
    render(<ContactCta hotline="400-687-5200" bookingUrl="https://ebooking.example.com/" />);
    expect(screen.getByRole('region', { name: '业务咨询' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /咨询热线：400-687-5200/ })).toHaveAttribute('href', 'tel:4006875200');
    expect(screen.getByRole('link', { name: '在线订舱' })).toHaveAttribute('href', 'https://ebooking.example.com/');
  });

  it('shows each only when set, and nothing when neither is', () => {
    const { rerender, container } = render(<ContactCta hotline="400-687-5200" bookingUrl="" />);
    expect(screen.queryByRole('link', { name: '在线订舱' })).toBeNull();
    expect(screen.getByRole('link', { name: /咨询热线/ })).toBeInTheDocument();
    rerender(<ContactCta hotline=" " bookingUrl="https://ebooking.example.com/" />);
    expect(screen.queryByRole('link', { name: /咨询热线/ })).toBeNull();
    expect(screen.getByRole('link', { name: '在线订舱' })).toBeInTheDocument();
    rerender(<ContactCta hotline="" bookingUrl="" />);
    expect(container).toBeEmptyDOMElement();
    // An address that is not a web page or an app route is no link.
    rerender(<ContactCta hotline="" bookingUrl="javascript:alert(1)" />);
    expect(container).toBeEmptyDOMElement();
  });

  it('checks addresses and numbers', () => {
    expect(safeHref('#/contact')).toBe('#/contact');
    expect(safeHref('http://example.com/')).toBe('http://example.com/');
    expect(safeHref('data:text/html,x')).toBeUndefined();
    expect(telHref('0874-6288 5312')).toBe('tel:087462885312');
  });
});

describe('信访举报', () => {
  const FULL = { phone: '0874-6288 5312', email: 'jijian@example.com', address: '枢纽大道 88 号集团纪委', hours: '工作日 8:30—17:30', website: '' };

  it('lists 电话, 邮箱, 地址 and 接待时间 with links', () => {
    render(<WhistleblowingBlock channel={FULL} />);
    expect(screen.getByRole('region', { name: '信访举报' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: FULL.phone })).toHaveAttribute('href', 'tel:087462885312');
    expect(screen.getByRole('link', { name: FULL.email })).toHaveAttribute('href', `mailto:${FULL.email}`);
    expect(screen.getByText(FULL.address)).toBeInTheDocument();
    expect(screen.getByText(FULL.hours)).toBeInTheDocument();
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual(['举报电话', '举报邮箱', '来信地址', '接待时间']);
  });

  it('shows each line only when set', () => {
    render(<WhistleblowingBlock channel={{ ...FULL, email: '', hours: '', website: '' }} />);
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual(['举报电话', '来信地址']);
  });

  it('is no block without a telephone, an e-mail or an address (hours alone are no way to report)', () => {
    const { container } = render(<WhistleblowingBlock channel={{ phone: '', email: ' ', address: '', hours: '工作日', website: '' }} />);
    expect(container).toBeEmptyDOMElement();
  });
});
