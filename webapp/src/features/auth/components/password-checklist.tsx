import type { PasswordRule } from '../utils/password-rules';

/** The policy as a list that ticks while the user types. */
export function PasswordChecklist({ rules }: { rules: PasswordRule[] }) {
  return (
    <>
      <span className="visually-hidden">A senha precisa ter:</span>
      <ul className="checklist">
        {rules.map((rule) => (
          <li key={rule.id} className={rule.met ? 'met' : undefined} data-rule={rule.id}>
            <span aria-hidden="true">{rule.met ? '✓' : '○'}</span> {rule.label}
            <span className="visually-hidden">{rule.met ? ' (atendido)' : ' (pendente)'}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
