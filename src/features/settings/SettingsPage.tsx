import { PageHeader } from '@/ui/index.ts';
import { ApiKeyManager } from './components/ApiKeyManager.tsx';
import { CredentialsSection } from './components/CredentialsSection.tsx';
import { ServiceSection } from './components/ServiceSection.tsx';

export default function SettingsPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Settings" description="The service you use, and how your requests are authorised." />
      <ServiceSection />
      <ApiKeyManager />
      <CredentialsSection />
    </div>
  );
}
