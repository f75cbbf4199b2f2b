// The renew feature's public face for other features: the dialog the Domains list opens for its selection.
export { RenewDialog } from './components/RenewDialog.tsx';
// The public quote names a domain's holder and expiry for anyone: the domain page's overview reads the same answer.
export { renewalQuoteQuery } from './api/renewal-quote.ts';
