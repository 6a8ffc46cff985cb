//! The plan's limits, decided here for every command that makes something the plan counts.
//!
//! A handler passes what the account already has ([`Usage`]) and what it is about to make
//! ([`LimitedAction`]); [`check`] answers `Ok` or a [`PlanLimitReached`] refusal (402, see
//! `domain::refusal`) whose message names the limit and offers the upgrade. Limits apply to new
//! actions only: an account back on Grátis keeps everything it made while Premium.

use crate::refusal::{Refusal, RefusalKind};

use super::plans::{Limits, PlanId};

/// Something a plan limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitedAction {
    /// Registering one more Pix key.
    RegisterPixKey,
    /// Making this many QR codes now (one, or a batch).
    CreateQrCodes(u32),
    /// Inviting one more person into the account.
    InviteMember,
    /// Turning on one more API Pix webhook endpoint.
    TurnOnApiPixEndpoint,
    /// Printing the shop's logo on a sign.
    LogoOnSign,
}

/// What the account has now, counted by the caller from the read models.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// Active Pix keys.
    pub pix_keys: u32,
    /// QR codes made this calendar month (São Paulo time).
    pub qrcodes_this_month: u32,
    /// Members besides the owner plus open invitations.
    pub extra_accounts: u32,
    /// API Pix endpoints turned on.
    pub api_pix_endpoints: u32,
}

/// Which limit was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// [`Limits::pix_keys`].
    PixKeys,
    /// [`Limits::qrcodes_per_month`].
    QrCodesPerMonth,
    /// [`Limits::extra_accounts`].
    ExtraAccounts,
    /// [`Limits::api_pix_endpoints`].
    ApiPixEndpoints,
    /// [`Limits::logo_on_signs`].
    LogoOnSigns,
}

/// The plan does not allow the action. 402 `plan-limit-reached`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanLimitReached {
    /// The account's plan now.
    pub plan: PlanId,
    /// The limit in the way.
    pub limit: Limit,
    /// How many the plan allows (0 for a feature it does not include).
    pub allowed: u32,
    /// How many Premium allows.
    pub premium_allows: u32,
}

impl std::fmt::Display for PlanLimitReached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plan = self.plan.plan().name;
        let (allowed, premium) = (self.allowed, self.premium_allows);
        let offer = "Assine o Premium no menu Plano do painel";
        match self.limit {
            Limit::PixKeys => write!(
                f,
                "O plano {plan} permite até {allowed} chaves Pix cadastradas. {offer} para cadastrar até {premium}."
            ),
            Limit::QrCodesPerMonth => write!(
                f,
                "O plano {plan} permite criar até {allowed} QR codes por mês, e este pedido passaria do limite. {offer} para criar até {premium} por mês."
            ),
            Limit::ExtraAccounts => write!(
                f,
                "O plano {plan} permite até {allowed} pessoas na equipe além de você (contando convites em aberto). {offer} para ter até {premium}."
            ),
            Limit::ApiPixEndpoints => write!(
                f,
                "O plano {plan} permite até {allowed} endereço de webhook API Pix ligado. {offer} para ligar até {premium}."
            ),
            Limit::LogoOnSigns => write!(
                f,
                "O logotipo nas placas faz parte do Premium. {offer} para usá-lo."
            ),
        }
    }
}

impl std::error::Error for PlanLimitReached {}

impl Refusal for PlanLimitReached {
    fn code(&self) -> &'static str {
        "plan-limit-reached"
    }

    fn kind(&self) -> RefusalKind {
        RefusalKind::PlanLimit
    }
}

impl PlanLimitReached {
    /// `plan`'s codes per month are used up: the refusal of any code more this month.
    pub fn qrcodes_per_month(plan: PlanId) -> PlanLimitReached {
        PlanLimitReached {
            plan,
            limit: Limit::QrCodesPerMonth,
            allowed: plan.plan().limits.qrcodes_per_month,
            premium_allows: PlanId::PremiumMensal.plan().limits.qrcodes_per_month,
        }
    }
}

/// Whether `plan` allows `action` for an account that has `usage`.
///
/// # Errors
///
/// [`PlanLimitReached`] naming the limit, when the action would go past it.
pub fn check(plan: PlanId, action: LimitedAction, usage: Usage) -> Result<(), PlanLimitReached> {
    let limits = plan.plan().limits;
    let premium = PlanId::PremiumMensal.plan().limits;
    let refuse = |limit: Limit, allowed: u32, premium_allows: u32| PlanLimitReached {
        plan,
        limit,
        allowed,
        premium_allows,
    };
    let within = |have: u32, adding: u32, allowed: u32| have.saturating_add(adding) <= allowed;
    match action {
        LimitedAction::RegisterPixKey if !within(usage.pix_keys, 1, limits.pix_keys) => {
            Err(refuse(Limit::PixKeys, limits.pix_keys, premium.pix_keys))
        }
        LimitedAction::CreateQrCodes(n)
            if !within(usage.qrcodes_this_month, n, limits.qrcodes_per_month) =>
        {
            Err(PlanLimitReached::qrcodes_per_month(plan))
        }
        LimitedAction::InviteMember if !within(usage.extra_accounts, 1, limits.extra_accounts) => {
            Err(refuse(
                Limit::ExtraAccounts,
                limits.extra_accounts,
                premium.extra_accounts,
            ))
        }
        LimitedAction::TurnOnApiPixEndpoint
            if !within(usage.api_pix_endpoints, 1, limits.api_pix_endpoints) =>
        {
            Err(refuse(
                Limit::ApiPixEndpoints,
                limits.api_pix_endpoints,
                premium.api_pix_endpoints,
            ))
        }
        LimitedAction::LogoOnSign if !limits.logo_on_signs => Err(refuse(Limit::LogoOnSigns, 0, 1)),
        _ => Ok(()),
    }
}

/// The limits of `plan` (a shorthand for pages).
pub fn limits_of(plan: PlanId) -> Limits {
    plan.plan().limits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_account_registers_keys_up_to_its_limit_and_not_one_more() {
        let at = |n| Usage {
            pix_keys: n,
            ..Usage::default()
        };
        assert!(check(PlanId::Gratis, LimitedAction::RegisterPixKey, at(9)).is_ok());
        let refused = check(PlanId::Gratis, LimitedAction::RegisterPixKey, at(10))
            .expect_err("the eleventh key is refused");
        assert_eq!(refused.limit, Limit::PixKeys);
        assert_eq!(refused.kind().http_status(), 402);
        let message = refused.to_string();
        assert!(message.contains("até 10 chaves Pix"), "{message}");
        assert!(message.contains("Premium"), "{message}");
        assert!(check(PlanId::PremiumMensal, LimitedAction::RegisterPixKey, at(10)).is_ok());
    }

    #[test]
    fn a_refusal_offers_premium_in_words_a_shop_owner_reads_not_a_raw_path() {
        for limit in [
            Limit::PixKeys,
            Limit::QrCodesPerMonth,
            Limit::ExtraAccounts,
            Limit::ApiPixEndpoints,
            Limit::LogoOnSigns,
        ] {
            let refused = PlanLimitReached {
                plan: PlanId::Gratis,
                limit,
                allowed: 0,
                premium_allows: 1,
            };
            let message = refused.to_string();
            assert!(!message.contains("/painel"), "{message}");
            assert!(
                message.contains("Assine o Premium no menu Plano"),
                "{message}"
            );
        }
    }

    #[test]
    fn a_batch_that_would_pass_the_monthly_limit_is_refused_whole() {
        let usage = Usage {
            qrcodes_this_month: 90,
            ..Usage::default()
        };
        assert!(check(PlanId::Gratis, LimitedAction::CreateQrCodes(10), usage).is_ok());
        let refused = check(PlanId::Gratis, LimitedAction::CreateQrCodes(11), usage)
            .expect_err("over the month's limit");
        assert_eq!(refused.limit, Limit::QrCodesPerMonth);
        assert!(refused.to_string().contains("100 QR codes por mês"));
        assert!(
            check(
                PlanId::PremiumAnual,
                LimitedAction::CreateQrCodes(11),
                usage
            )
            .is_ok()
        );
    }

    #[test]
    fn invitations_and_api_pix_endpoints_stop_at_the_plans_count() {
        let usage = Usage {
            extra_accounts: 5,
            api_pix_endpoints: 1,
            ..Usage::default()
        };
        assert_eq!(
            check(PlanId::Gratis, LimitedAction::InviteMember, usage).map_err(|e| e.limit),
            Err(Limit::ExtraAccounts)
        );
        assert_eq!(
            check(PlanId::Gratis, LimitedAction::TurnOnApiPixEndpoint, usage).map_err(|e| e.limit),
            Err(Limit::ApiPixEndpoints)
        );
        assert!(check(PlanId::PremiumMensal, LimitedAction::InviteMember, usage).is_ok());
        assert!(
            check(
                PlanId::PremiumMensal,
                LimitedAction::TurnOnApiPixEndpoint,
                usage
            )
            .is_ok()
        );
    }

    #[test]
    fn the_logo_is_a_premium_feature() {
        let logo = LimitedAction::LogoOnSign;
        assert!(check(PlanId::Gratis, logo, Usage::default()).is_err());
        assert!(check(PlanId::PremiumMensal, logo, Usage::default()).is_ok());
    }
}
