//! What each client address holds right now (open connections, live streams), for the caps per
//! address that sit beside the global ones: without them one address could take every place
//! and leave nothing to anyone else.
//!
//! An IPv4 address counts alone; an IPv6 address counts with its whole /64, the block one
//! household or one host is given, so stepping through its own addresses gains a client
//! nothing. An IPv4-mapped IPv6 address is its IPv4 address.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, PoisonError};

/// Places held per address, up to a cap; cheap to share (`Arc`).
#[derive(Debug)]
pub struct PerAddress {
    cap: usize,
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// One place held by an address; given back when dropped.
#[derive(Debug)]
pub struct AddressSlot {
    owner: Arc<PerAddress>,
    key: IpAddr,
}

impl PerAddress {
    /// Counts with at most `cap` places per address.
    pub fn new(cap: usize) -> Arc<PerAddress> {
        Arc::new(PerAddress {
            cap,
            held: Mutex::new(HashMap::new()),
        })
    }

    /// A place for `address`, or `None` when it already holds `cap`.
    pub fn try_take(self: &Arc<Self>, address: IpAddr) -> Option<AddressSlot> {
        let key = key(address);
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let count = held.entry(key).or_default();
        if *count >= self.cap {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            owner: Arc::clone(self),
            key,
        })
    }

    /// Places `address` holds now.
    pub fn held_by(&self, address: IpAddr) -> usize {
        let held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.get(&key(address)).copied().unwrap_or_default()
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut held = self
            .owner
            .held
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = held.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                held.remove(&self.key);
            }
        }
    }
}

/// The address `address` is counted under: itself for IPv4, its /64 for IPv6.
fn key(address: IpAddr) -> IpAddr {
    match address.to_canonical() {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !(u128::from(u64::MAX));
            IpAddr::V6(Ipv6Addr::from(bits))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn an_address_gets_at_most_its_cap_and_others_are_not_affected() {
        let counts = PerAddress::new(2);
        let one = counts.try_take(ip("203.0.113.7"));
        let two = counts.try_take(ip("203.0.113.7"));
        assert!(one.is_some() && two.is_some());
        assert!(counts.try_take(ip("203.0.113.7")).is_none());
        assert!(counts.try_take(ip("203.0.113.8")).is_some());
        drop(one);
        assert!(counts.try_take(ip("203.0.113.7")).is_some());
    }

    #[test]
    fn a_place_given_back_leaves_no_entry_behind() {
        let counts = PerAddress::new(1);
        let slot = counts.try_take(ip("203.0.113.7"));
        assert_eq!(counts.held_by(ip("203.0.113.7")), 1);
        drop(slot);
        assert_eq!(counts.held_by(ip("203.0.113.7")), 0);
        assert!(counts.held.lock().expect("not poisoned").is_empty());
    }

    #[test]
    fn ipv6_addresses_of_one_slash_64_count_together_and_mapped_ipv4_is_ipv4() {
        let counts = PerAddress::new(1);
        let _first = counts.try_take(ip("2001:db8:1:2::1"));
        assert!(counts.try_take(ip("2001:db8:1:2:ffff::9")).is_none());
        assert!(counts.try_take(ip("2001:db8:1:3::1")).is_some());
        let _v4 = counts.try_take(ip("192.0.2.1"));
        assert!(counts.try_take(ip("::ffff:192.0.2.1")).is_none());
    }
}
