//! The public site, the first flow (sign form → payer page), the served dashboard, and the
//! public copy's truthfulness.

mod first_flow;
mod hostile_forms;
mod public_site;
mod truthful_copy;
mod webapp_serving;
