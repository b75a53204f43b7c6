export { accessFor, allowedRoutes, isAllowed, type Access, type InitialState } from './access';
export { useInitialState } from './initial-state';
