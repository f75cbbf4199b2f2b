// The renew feature's public face for other features: the dialog the Domains list opens for its selection.
export { RenewDialog } from './components/RenewDialog.tsx';
