//! Reconciliation of statement Pix credits with the account's codes and payments.
