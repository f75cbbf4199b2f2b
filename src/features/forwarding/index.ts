// What other features may use of forwarding: where the domain forwards (the domain page's overview shows it).
export { forwardingQuery } from './api/forwarding.ts';
