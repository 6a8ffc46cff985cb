//! Password policy: which passwords an account may have.
//!
//! The default asks only for 6 characters, like most sign-up forms; the other rules can be
//! switched on. Characters are Unicode scalar values and are classified the way Rust's `char`
//! does it, so "ação" has lower-case letters, "Ç" is upper-case, "٣" (Arabic-Indic three) is
//! numeric and a space is neither letter nor digit.
//!
//! ```
//! use domain::account::password_policy::{PasswordPolicy, Rule, explain};
//! let policy = PasswordPolicy { min_length: 8, require_numeric: true, ..PasswordPolicy::default() };
//! assert_eq!(policy.check("segredo1"), Ok(()));
//! let missing = policy.check("senha").unwrap_err();
//! assert_eq!(missing, vec![Rule::MinLength(8), Rule::Numeric]);
//! assert_eq!(explain(&missing), "A senha precisa ter pelo menos 8 caracteres e um número.");
//! ```

/// The longest password accepted, in characters: enough for any passphrase, short enough that
/// hashing it costs nothing unusual.
pub const MAX_LENGTH: usize = 128;

/// The shortest password the default policy accepts, in characters.
pub const DEFAULT_MIN_LENGTH: usize = 6;

/// The rules a password must follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PasswordPolicy {
    /// At least this many characters (`chars()`, not bytes). Values over [`MAX_LENGTH`] make
    /// every password fail.
    pub min_length: usize,
    /// At least one lower-case letter (`char::is_lowercase`).
    pub require_lowercase: bool,
    /// At least one upper-case letter (`char::is_uppercase`).
    pub require_uppercase: bool,
    /// At least one numeric character (`char::is_numeric`).
    pub require_numeric: bool,
    /// At least one character that is neither letter nor number (`!char::is_alphanumeric`; a
    /// space counts).
    pub require_non_alphanumeric: bool,
}

impl Default for PasswordPolicy {
    /// Six characters, no character classes required.
    fn default() -> PasswordPolicy {
        PasswordPolicy {
            min_length: DEFAULT_MIN_LENGTH,
            require_lowercase: false,
            require_uppercase: false,
            require_numeric: false,
            require_non_alphanumeric: false,
        }
    }
}

/// One rule a password breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Shorter than this many characters.
    MinLength(usize),
    /// Longer than this many characters.
    MaxLength(usize),
    /// No lower-case letter.
    Lowercase,
    /// No upper-case letter.
    Uppercase,
    /// No number.
    Numeric,
    /// No character other than letters and numbers.
    NonAlphanumeric,
}

impl Rule {
    /// A stable, machine-readable code, e.g. for the webapp to tick a checklist.
    pub fn code(self) -> &'static str {
        match self {
            Rule::MinLength(_) => "min-length",
            Rule::MaxLength(_) => "max-length",
            Rule::Lowercase => "lowercase",
            Rule::Uppercase => "uppercase",
            Rule::Numeric => "numeric",
            Rule::NonAlphanumeric => "non-alphanumeric",
        }
    }

    /// What the password lacks, as the end of "A senha precisa ter …" (pt-BR). `None` for
    /// [`Rule::MaxLength`], which is a limit rather than something missing.
    fn requirement(self) -> Option<String> {
        match self {
            Rule::MinLength(n) => Some(format!("pelo menos {n} caracteres")),
            Rule::MaxLength(_) => None,
            Rule::Lowercase => Some("uma letra minúscula".to_owned()),
            Rule::Uppercase => Some("uma letra maiúscula".to_owned()),
            Rule::Numeric => Some("um número".to_owned()),
            Rule::NonAlphanumeric => Some("um símbolo ou espaço".to_owned()),
        }
    }
}

impl std::fmt::Display for Rule {
    /// The rule on its own, as a pt-BR sentence.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self, self.requirement()) {
            (Rule::MaxLength(n), _) => write!(f, "A senha pode ter no máximo {n} caracteres."),
            (_, Some(requirement)) => write!(f, "A senha precisa ter {requirement}."),
            (_, None) => Ok(()),
        }
    }
}

impl PasswordPolicy {
    /// Checks `password`; on failure, every broken rule in the order the fields are declared
    /// (length first).
    pub fn check(&self, password: &str) -> Result<(), Vec<Rule>> {
        let mut length = 0;
        let (mut lower, mut upper, mut numeric, mut other) = (false, false, false, false);
        for c in password.chars() {
            length += 1;
            lower |= c.is_lowercase();
            upper |= c.is_uppercase();
            numeric |= c.is_numeric();
            other |= !c.is_alphanumeric();
        }
        let mut broken = Vec::new();
        if length < self.min_length {
            broken.push(Rule::MinLength(self.min_length));
        }
        if length > MAX_LENGTH {
            broken.push(Rule::MaxLength(MAX_LENGTH));
        }
        if self.require_lowercase && !lower {
            broken.push(Rule::Lowercase);
        }
        if self.require_uppercase && !upper {
            broken.push(Rule::Uppercase);
        }
        if self.require_numeric && !numeric {
            broken.push(Rule::Numeric);
        }
        if self.require_non_alphanumeric && !other {
            broken.push(Rule::NonAlphanumeric);
        }
        if broken.is_empty() {
            Ok(())
        } else {
            Err(broken)
        }
    }

    /// The rules this policy enforces, as a pt-BR sentence for the form's hint, e.g. "A senha
    /// precisa ter pelo menos 6 caracteres."
    pub fn describe(&self) -> String {
        let mut rules = vec![Rule::MinLength(self.min_length)];
        for (on, rule) in [
            (self.require_lowercase, Rule::Lowercase),
            (self.require_uppercase, Rule::Uppercase),
            (self.require_numeric, Rule::Numeric),
            (self.require_non_alphanumeric, Rule::NonAlphanumeric),
        ] {
            if on {
                rules.push(rule);
            }
        }
        explain(&rules)
    }
}

/// One pt-BR message for every rule a password broke, e.g. "A senha precisa ter pelo menos 8
/// caracteres, uma letra maiúscula e um número."
pub fn explain(broken: &[Rule]) -> String {
    let requirements: Vec<String> = broken.iter().filter_map(|r| r.requirement()).collect();
    let mut sentences = Vec::new();
    if let Some((last, rest)) = requirements.split_last() {
        let listed = if rest.is_empty() {
            last.clone()
        } else {
            format!("{} e {last}", rest.join(", "))
        };
        sentences.push(format!("A senha precisa ter {listed}."));
    }
    for rule in broken {
        if let Rule::MaxLength(_) = rule {
            sentences.push(rule.to_string());
        }
    }
    sentences.join(" ")
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn strict() -> PasswordPolicy {
        PasswordPolicy {
            min_length: 8,
            require_lowercase: true,
            require_uppercase: true,
            require_numeric: true,
            require_non_alphanumeric: true,
        }
    }

    #[test]
    fn the_default_policy_asks_for_six_characters_and_nothing_else() {
        let policy = PasswordPolicy::default();
        assert_eq!(policy.min_length, 6);
        assert_eq!(policy.check("abcdef"), Ok(()));
        assert_eq!(policy.check("123456"), Ok(()));
        assert_eq!(policy.check("      "), Ok(()));
        assert_eq!(policy.check("abcde"), Err(vec![Rule::MinLength(6)]));
        assert_eq!(policy.check(""), Err(vec![Rule::MinLength(6)]));
    }

    #[test]
    fn length_counts_characters_not_bytes() {
        let policy = PasswordPolicy::default();
        // Six characters, twelve bytes in UTF-8.
        assert_eq!(policy.check("çãéíõú"), Ok(()));
        // Five characters, ten bytes.
        assert_eq!(policy.check("çãéíõ"), Err(vec![Rule::MinLength(6)]));
    }

    #[test]
    fn a_password_longer_than_128_characters_is_refused() {
        let policy = PasswordPolicy::default();
        assert_eq!(policy.check(&"a".repeat(128)), Ok(()));
        assert_eq!(
            policy.check(&"ç".repeat(129)),
            Err(vec![Rule::MaxLength(128)])
        );
    }

    #[test]
    fn each_optional_rule_is_enforced_only_when_switched_on() {
        let base = PasswordPolicy::default();
        let cases = [
            (
                PasswordPolicy {
                    require_lowercase: true,
                    ..base
                },
                "SENHA123",
                "Senha123",
                Rule::Lowercase,
            ),
            (
                PasswordPolicy {
                    require_uppercase: true,
                    ..base
                },
                "senha123",
                "senhA123",
                Rule::Uppercase,
            ),
            (
                PasswordPolicy {
                    require_numeric: true,
                    ..base
                },
                "senhasenha",
                "senha5enha",
                Rule::Numeric,
            ),
            (
                PasswordPolicy {
                    require_non_alphanumeric: true,
                    ..base
                },
                "senha123",
                "senha 123",
                Rule::NonAlphanumeric,
            ),
        ];
        for (policy, without, with, rule) in cases {
            assert_eq!(policy.check(without), Err(vec![rule]), "{without:?}");
            assert_eq!(policy.check(with), Ok(()), "{with:?}");
            assert_eq!(base.check(without), Ok(()), "off by default: {without:?}");
        }
    }

    #[test]
    fn letters_and_digits_of_any_script_count() {
        let policy = strict();
        // "ação" lower-case, "Ç" upper-case, "٣" numeric, " " non-alphanumeric.
        assert_eq!(policy.check("ação Ç٣x"), Ok(()));
        let only = |password: &str| policy.check(password).unwrap_err();
        assert!(!only("ação").contains(&Rule::Lowercase));
        assert!(!only("Ç").contains(&Rule::Uppercase));
        assert!(!only("٣").contains(&Rule::Numeric));
        assert!(!only(" ").contains(&Rule::NonAlphanumeric));
        // A space is neither a letter nor a number, and nothing else either.
        assert_eq!(
            only(" "),
            vec![
                Rule::MinLength(8),
                Rule::Lowercase,
                Rule::Uppercase,
                Rule::Numeric
            ]
        );
    }

    #[test]
    fn every_broken_rule_is_listed_in_order() {
        assert_eq!(
            strict().check(""),
            Err(vec![
                Rule::MinLength(8),
                Rule::Lowercase,
                Rule::Uppercase,
                Rule::Numeric,
                Rule::NonAlphanumeric
            ])
        );
    }

    #[test]
    fn each_rule_has_a_portuguese_message() {
        assert_eq!(
            Rule::MinLength(6).to_string(),
            "A senha precisa ter pelo menos 6 caracteres."
        );
        assert_eq!(
            Rule::MaxLength(128).to_string(),
            "A senha pode ter no máximo 128 caracteres."
        );
        assert_eq!(
            Rule::Lowercase.to_string(),
            "A senha precisa ter uma letra minúscula."
        );
        assert_eq!(
            Rule::Uppercase.to_string(),
            "A senha precisa ter uma letra maiúscula."
        );
        assert_eq!(Rule::Numeric.to_string(), "A senha precisa ter um número.");
        assert_eq!(
            Rule::NonAlphanumeric.to_string(),
            "A senha precisa ter um símbolo ou espaço."
        );
    }

    #[test]
    fn the_combined_message_lists_everything_missing_in_one_sentence() {
        let missing = strict().check("").unwrap_err();
        assert_eq!(
            explain(&missing),
            "A senha precisa ter pelo menos 8 caracteres, uma letra minúscula, uma letra \
             maiúscula, um número e um símbolo ou espaço."
        );
        assert_eq!(
            explain(&[Rule::Uppercase, Rule::MaxLength(128)]),
            "A senha precisa ter uma letra maiúscula. A senha pode ter no máximo 128 caracteres."
        );
        assert_eq!(explain(&[]), "");
    }

    #[test]
    fn a_policy_describes_itself_for_the_form() {
        assert_eq!(
            PasswordPolicy::default().describe(),
            "A senha precisa ter pelo menos 6 caracteres."
        );
        assert_eq!(
            PasswordPolicy {
                require_numeric: true,
                ..PasswordPolicy::default()
            }
            .describe(),
            "A senha precisa ter pelo menos 6 caracteres e um número."
        );
    }

    #[test]
    fn rule_codes_are_stable() {
        let codes: Vec<&str> = [
            Rule::MinLength(6),
            Rule::MaxLength(128),
            Rule::Lowercase,
            Rule::Uppercase,
            Rule::Numeric,
            Rule::NonAlphanumeric,
        ]
        .into_iter()
        .map(Rule::code)
        .collect();
        assert_eq!(
            codes,
            [
                "min-length",
                "max-length",
                "lowercase",
                "uppercase",
                "numeric",
                "non-alphanumeric"
            ]
        );
    }

    fn any_policy() -> impl Strategy<Value = PasswordPolicy> {
        (0usize..20, any::<[bool; 4]>()).prop_map(|(min_length, flags)| PasswordPolicy {
            min_length,
            require_lowercase: flags[0],
            require_uppercase: flags[1],
            require_numeric: flags[2],
            require_non_alphanumeric: flags[3],
        })
    }

    proptest! {
        #[test]
        fn each_class_rule_fails_exactly_when_no_character_of_that_class_is_present(
            policy in any_policy(),
            password in "\\PC{0,40}",
        ) {
            let broken = policy.check(&password).err().unwrap_or_default();
            let has = |test: fn(char) -> bool| password.chars().any(test);
            prop_assert_eq!(
                broken.contains(&Rule::Lowercase),
                policy.require_lowercase && !has(char::is_lowercase)
            );
            prop_assert_eq!(
                broken.contains(&Rule::Uppercase),
                policy.require_uppercase && !has(char::is_uppercase)
            );
            prop_assert_eq!(
                broken.contains(&Rule::Numeric),
                policy.require_numeric && !has(char::is_numeric)
            );
            prop_assert_eq!(
                broken.contains(&Rule::NonAlphanumeric),
                policy.require_non_alphanumeric && !has(|c| !c.is_alphanumeric())
            );
        }

        #[test]
        fn the_length_rules_fail_exactly_outside_min_and_max_characters(
            policy in any_policy(),
            password in "\\PC{0,200}",
        ) {
            let broken = policy.check(&password).err().unwrap_or_default();
            let length = password.chars().count();
            prop_assert_eq!(
                broken.contains(&Rule::MinLength(policy.min_length)),
                length < policy.min_length
            );
            prop_assert_eq!(broken.contains(&Rule::MaxLength(MAX_LENGTH)), length > MAX_LENGTH);
        }

        #[test]
        fn a_password_is_accepted_exactly_when_it_fits_every_rule_and_the_message_names_each(
            policy in any_policy(),
            password in "\\PC{0,40}",
        ) {
            let has = |test: fn(char) -> bool| password.chars().any(test);
            let length = password.chars().count();
            let fits = length >= policy.min_length
                && length <= MAX_LENGTH
                && (!policy.require_lowercase || has(char::is_lowercase))
                && (!policy.require_uppercase || has(char::is_uppercase))
                && (!policy.require_numeric || has(char::is_numeric))
                && (!policy.require_non_alphanumeric || has(|c| !c.is_alphanumeric()));
            match policy.check(&password) {
                Ok(()) => prop_assert!(fits),
                Err(broken) => {
                    prop_assert!(!fits);
                    prop_assert!(!broken.is_empty());
                    let message = explain(&broken);
                    for rule in broken {
                        let requirement = rule.requirement().unwrap_or_default();
                        prop_assert!(message.contains(&requirement), "{} / {:?}", message, rule);
                    }
                }
            }
        }
    }
}
