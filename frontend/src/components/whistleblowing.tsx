import './page-extras.css';

import { useId } from 'react';

import type { Whistleblowing } from '../lib/api-types';
import { telHref } from './contact-cta';

/**
 * 信访举报 on 清正廉洁: how to reach the discipline inspection office, each line only when the site
 * has it; no block unless there is a way to report (a telephone, an e-mail or a postal address:
 * reception hours alone are none).
 */
export function WhistleblowingBlock({ channel }: { channel: Whistleblowing }) {
  const id = useId();
  const phone = channel.phone.trim();
  const email = channel.email.trim();
  const address = channel.address.trim();
  const hours = channel.hours.trim();
  if (!phone && !email && !address) return null;
  return (
    <section className="whistleblowing" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>信访举报</h2>
      <p>对党员干部和管理人员违纪违法、违反廉洁从业规定的问题，欢迎来电、来信、来访反映。</p>
      <dl className="contact-list">
        {phone && (
          <>
            <dt>举报电话</dt>
            <dd>
              <a href={telHref(phone)}>{phone}</a>
            </dd>
          </>
        )}
        {email && (
          <>
            <dt>举报邮箱</dt>
            <dd>
              <a href={`mailto:${email}`}>{email}</a>
            </dd>
          </>
        )}
        {address && (
          <>
            <dt>来信地址</dt>
            <dd>{address}</dd>
          </>
        )}
        {hours && (
          <>
            <dt>接待时间</dt>
            <dd>{hours}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
