import { accessFor, allowedRoutes, isAllowed } from './access';

interface R {
  path: string;
  access?: string;
  routes?: R[];
}

describe('access', () => {
  it('canSeeAdmin is true unless the name is dontHaveAccess', () => {
    expect(accessFor(undefined).canSeeAdmin).toBe(true);
    expect(accessFor({}).canSeeAdmin).toBe(true);
    expect(accessFor({ name: '访客' }).canSeeAdmin).toBe(true);
    expect(accessFor({ name: 'dontHaveAccess' }).canSeeAdmin).toBe(false);
  });

  it('hides a route whose access key is false or not defined', () => {
    const access = { canSeeAdmin: false, canRead: true };
    expect(isAllowed({}, access)).toBe(true);
    expect(isAllowed({ access: 'canRead' }, access)).toBe(true);
    expect(isAllowed({ access: 'canSeeAdmin' }, access)).toBe(false);
    expect(isAllowed({ access: 'neverDefined' }, access)).toBe(false);
  });

  it('hides a parent when all its children are hidden', () => {
    const routes: R[] = [
      { path: '/open' },
      { path: '/admin', routes: [{ path: '/admin/a', access: 'canSeeAdmin' }, { path: '/admin/b', access: 'canSeeAdmin' }] },
      { path: '/mixed', routes: [{ path: '/mixed/a', access: 'canSeeAdmin' }, { path: '/mixed/b' }] },
    ];
    const visitor = allowedRoutes(routes, accessFor({ name: 'dontHaveAccess' }));
    expect(visitor.map((r) => r.path)).toEqual(['/open', '/mixed']);
    expect(visitor[1].routes?.map((r) => r.path)).toEqual(['/mixed/b']);
    const admin = allowedRoutes(routes, accessFor({ name: '管理员' }));
    expect(admin.map((r) => r.path)).toEqual(['/open', '/admin', '/mixed']);
  });
});
