//! Balcão's HTTP gateway.
