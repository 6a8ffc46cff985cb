//! The plans, as configuration: what each costs (integer centavos) and what it allows.
//!
//! | | Grátis | Premium mensal | Premium anual |
//! |---|---|---|---|
//! | price | R$ 0,00 | R$ 19,90 a month | R$ 199,00 a year |
//! | Pix keys | 10 | 50 | 50 |
//! | QR codes made per month | 100 | 2.000 | 2.000 |
//! | extra accounts (team members and open invitations) | 5 | 20 | 20 |
//! | logo on signs | no | yes | yes |
//! | CSV export of payments | yes | yes | yes |
//! | API Pix webhook endpoints | 1 | 10 | 10 |
//! | history shown | last 90 days | all | all |
//!
//! The README and `/painel/premium` show these same numbers (the page reads them from here
//! through `GET /api/plans`). A month is counted in São Paulo time from the 1st. CSV export is
//! not a limit: a shop's payments are its own data, and every plan exports them.

use serde::{Deserialize, Serialize};

use crate::money::Centavos;

/// A plan an account can be on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlanId {
    /// The free plan every account starts on, and returns to when Premium ends.
    Gratis,
    /// Premium, paid each month.
    PremiumMensal,
    /// Premium, paid once a year.
    PremiumAnual,
}

/// How long one payment of a plan lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Period {
    /// Never paid for.
    Free,
    /// One calendar month.
    Month,
    /// Twelve calendar months.
    Year,
}

/// What a plan allows. `None` in a count means "no limit".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    /// Active Pix keys registered in the account.
    pub pix_keys: u32,
    /// QR codes made by the account in one calendar month (São Paulo time).
    pub qrcodes_per_month: u32,
    /// People besides the owner: members plus invitations not yet accepted.
    pub extra_accounts: u32,
    /// The shop's logo printed on its signs.
    pub logo_on_signs: bool,
    /// API Pix webhook endpoints (receivers) turned on at once.
    pub api_pix_endpoints: u32,
    /// Days of payment history shown; `None` for all of it.
    pub history_days: Option<u32>,
}

/// One plan's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    /// Its id.
    pub id: PlanId,
    /// Its name as people read it (pt-BR).
    pub name: &'static str,
    /// What one payment costs.
    pub price: Centavos,
    /// How long one payment lasts.
    pub period: Period,
    /// What it allows.
    pub limits: Limits,
}

const PREMIUM_LIMITS: Limits = Limits {
    pix_keys: 50,
    qrcodes_per_month: 2_000,
    extra_accounts: 20,
    logo_on_signs: true,
    api_pix_endpoints: 10,
    history_days: None,
};

/// Every plan, cheapest first.
pub const PLANS: [Plan; 3] = [
    Plan {
        id: PlanId::Gratis,
        name: "Grátis",
        price: Centavos::new(0),
        period: Period::Free,
        limits: Limits {
            pix_keys: 10,
            qrcodes_per_month: 100,
            extra_accounts: 5,
            logo_on_signs: false,
            // A shop's own payments are its data: every plan exports them.
            api_pix_endpoints: 1,
            history_days: Some(90),
        },
    },
    Plan {
        id: PlanId::PremiumMensal,
        name: "Premium mensal",
        price: Centavos::new(1_990),
        period: Period::Month,
        limits: PREMIUM_LIMITS,
    },
    Plan {
        id: PlanId::PremiumAnual,
        name: "Premium anual",
        price: Centavos::new(19_900),
        period: Period::Year,
        limits: PREMIUM_LIMITS,
    },
];

impl PlanId {
    /// The plan's configuration.
    pub fn plan(self) -> &'static Plan {
        match self {
            PlanId::Gratis => &PLANS[0],
            PlanId::PremiumMensal => &PLANS[1],
            PlanId::PremiumAnual => &PLANS[2],
        }
    }

    /// Whether this is a paid plan.
    pub fn is_premium(self) -> bool {
        self != PlanId::Gratis
    }

    /// The id as stored and sent (`gratis`, `premium-mensal`, `premium-anual`).
    pub fn as_str(self) -> &'static str {
        match self {
            PlanId::Gratis => "gratis",
            PlanId::PremiumMensal => "premium-mensal",
            PlanId::PremiumAnual => "premium-anual",
        }
    }

    /// Reads an id as [`PlanId::as_str`] writes it.
    pub fn parse(text: &str) -> Option<PlanId> {
        PLANS.iter().map(|p| p.id).find(|id| id.as_str() == text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn premium_allows_at_least_as_much_as_gratis_in_every_limit() {
        let free = PlanId::Gratis.plan().limits;
        for id in [PlanId::PremiumMensal, PlanId::PremiumAnual] {
            let paid = id.plan().limits;
            assert!(paid.pix_keys > free.pix_keys);
            assert!(paid.qrcodes_per_month > free.qrcodes_per_month);
            assert!(paid.extra_accounts > free.extra_accounts);
            assert!(paid.api_pix_endpoints > free.api_pix_endpoints);
            assert!(paid.logo_on_signs && paid.history_days.is_none());
            assert!(id.plan().price.get() > 0);
        }
    }

    #[test]
    fn a_year_costs_less_than_twelve_months() {
        let month = PlanId::PremiumMensal.plan().price.get();
        assert!(PlanId::PremiumAnual.plan().price.get() < 12 * month);
    }

    #[test]
    fn every_plan_id_reads_back_from_its_text() {
        for plan in PLANS {
            assert_eq!(PlanId::parse(plan.id.as_str()), Some(plan.id));
            assert_eq!(plan.id.plan().id, plan.id);
        }
        assert_eq!(PlanId::parse("ouro"), None);
    }
}
