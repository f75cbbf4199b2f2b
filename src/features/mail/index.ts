// What others may use of the mail feature: the mail check as the tab asks it (the refresh rule's test mounts it). The
// tab itself (MailPanel) is mounted lazily by src/app.
export { mailCheckQuery } from './api/check-mail-auth.ts';
