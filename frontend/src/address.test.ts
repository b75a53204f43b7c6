// The app and the gateway read a page's address alike: the same hostile values, fed to the app's
// readers here and to the gateway's page key in `pages::tests::an_address_value_is_read_as_the_app_reads_it`,
// give the answer `lib/address-cases.json` holds. A page the gateway renders from one reading and
// the browser hydrates from another would not match (nor would the canonical link).
import { dayOf, normalizeKeyword } from './features/search/keyword';
import cases from './lib/address-cases.json';
import { articleIdOf, pageNumberOf } from './lib/page-href';

const asText = (value: number | null): string | null => (value === null ? null : String(value));

/** A query value as the page that reads `name` takes it. */
function read(name: string, raw: string): string | null {
  switch (name) {
    case 'page':
    case 'listPage':
      return asText(pageNumberOf(raw));
    case 'id':
    case 'section':
      return asText(articleIdOf(raw));
    case 'from':
    case 'to':
      return dayOf(raw);
    case 'q':
      return normalizeKeyword(raw);
    default:
      return null;
  }
}

describe('an address value', () => {
  it.each(cases.cases.map((c) => [c.name, JSON.stringify(c.raw), c.raw, c.read] as const))(
    '%s=%s is read as the gateway reads it',
    (name, _shown, raw, expected) => {
      expect(read(name, raw)).toBe(expected);
    },
  );
});
