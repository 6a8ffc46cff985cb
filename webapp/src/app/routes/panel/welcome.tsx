import { WelcomeGuide } from '@/features/onboarding/components/welcome-guide';

/** /painel/boas-vindas */
export function Component() {
  return <WelcomeGuide />;
}
