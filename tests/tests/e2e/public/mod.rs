//! The public site, the first flow (sign form → payer page) and the served dashboard.

mod first_flow;
mod public_site;
mod webapp_serving;
