//! Server-rendered public pages (askama): the home page, articles, institutional pages, the sign
//! creator, the page of a sign just made (`/placa-pix-criada`), the payer page and the payment-link
//! page (`/pagar`).

pub mod articles;
pub mod home;
pub mod institutional;
pub mod pay_link;
pub mod payment;
pub mod seo;
pub mod sign_created;
pub mod sign_form;
pub mod sign_input;
pub mod sign_preview;
pub mod static_files;
