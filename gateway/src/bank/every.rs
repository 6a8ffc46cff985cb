//! The loop the bank workers share: one pass every period until shutdown, a failed pass logged
//! and tried again at the next tick.

use std::time::Duration;

use projections::CancellationToken;

/// Runs `pass` every `period` (the first at once) until `token` is cancelled; `what` names the
/// pass in the log when it fails.
pub async fn every<F, Fut>(
    period: Duration,
    token: &CancellationToken,
    what: &'static str,
    mut pass: F,
) where
    F: FnMut() -> Fut,
    Fut: Future<Output = anyhow::Result<()>>,
{
    let mut ticks = tokio::time::interval(period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = token.cancelled() => return,
            _ = ticks.tick() => {}
        }
        if let Err(error) = pass().await {
            tracing::warn!(%error, what, "a bank pass failed; trying again at the next tick");
        }
    }
}
