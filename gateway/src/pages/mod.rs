//! Server-rendered public pages (askama): the home page, articles, institutional pages, the sign
//! creator and the payer page.

pub mod articles;
pub mod home;
pub mod institutional;
pub mod payment;
pub mod seo;
pub mod sign_form;
