// Access rules (spec §6), as pure functions.

export interface InitialState {
  name?: string;
}

export type Access = Record<string, boolean>;

/** `canSeeAdmin` is true unless the initial state's name is `dontHaveAccess`. */
export function accessFor(initial: InitialState | undefined): Access {
  return { canSeeAdmin: !(initial && initial.name === 'dontHaveAccess') };
}

export interface Guarded<T> {
  access?: string;
  routes?: T[];
}

/** A route naming an access key is hidden when that key is false or not defined. */
export function isAllowed(route: Guarded<unknown>, access: Access): boolean {
  return route.access === undefined || access[route.access] === true;
}

/**
 * The routes a visitor may reach: a route is dropped when its access key denies it, and a parent
 * is dropped when it has children and all of them are dropped.
 */
export function allowedRoutes<T extends Guarded<T>>(routes: readonly T[], access: Access): T[] {
  const out: T[] = [];
  for (const route of routes) {
    if (!isAllowed(route, access)) continue;
    if (route.routes && route.routes.length > 0) {
      const children = allowedRoutes(route.routes, access);
      if (children.length === 0) continue;
      out.push({ ...route, routes: children });
    } else {
      out.push(route);
    }
  }
  return out;
}
